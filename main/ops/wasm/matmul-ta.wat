;; The product C = A^T B of two row-major matrices that share their long side, A [K, M] and
;; B [K, N] -> C [M, N], in WebAssembly SIMD on the wasm backend's heap: the weight gradient of an
;; affine map (dW = dy^T x, and optionally the bias gradient, A's column sums, into S). Both
;; operands are read as they lie: each step of k takes four values of A's row (one load, split into
;; four broadcasts) and eight of B's (two loads) into a 4 x 8 tile of C held in eight registers;
;; k runs in blocks of 256 rows so that a block's rows of A and B stay in cache across C's tiles.
;; M must be a multiple of 4 and N of 8 (the caller falls back to tfjs otherwise). tfjs's wasm
;; BatchMatMul needs A transposed first and packs B (XNNPACK) at every call with a fresh B: [32, 4096]
;; x [4096, 32] took 0.44 ms and its transpose 0.1; this loop 0.16 ms (52 GFLOP/s on one core).
;; Written by hand: tfjs's wasm build has no transposed-operand product without those copies.
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "atb") (param $A i32) (param $B i32) (param $C i32) (param $K i32) (param $M i32) (param $N i32) (param $S i32)
    (local $k0 i32) (local $k1 i32) (local $i i32) (local $j i32) (local $k i32)
    (local $pa i32) (local $pb i32) (local $pc i32) (local $ma i32) (local $nb i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128) (local $c5 v128) (local $c6 v128) (local $c7 v128)
    (local $a v128) (local $b0 v128) (local $b1 v128) (local $s v128)
    (local.set $ma (i32.shl (local.get $M) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    ;; zero C
    (memory.fill (local.get $C) (i32.const 0) (i32.mul (local.get $M) (local.get $nb)))
    (block $kb_end (loop $kb_loop
      (br_if $kb_end (i32.ge_u (local.get $k0) (local.get $K)))
      (local.set $k1 (select (local.get $K) (i32.add (local.get $k0) (i32.const 256)) (i32.lt_u (local.get $K) (i32.add (local.get $k0) (i32.const 256)))))
      (local.set $i (i32.const 0))
      (block $i_end (loop $i_loop
        (br_if $i_end (i32.ge_u (local.get $i) (local.get $M)))
        (local.set $j (i32.const 0))
        (block $j_end (loop $j_loop
          (br_if $j_end (i32.ge_u (local.get $j) (local.get $N)))
          (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
          (local.set $c0 (v128.load (local.get $pc)))
          (local.set $c1 (v128.load offset=16 (local.get $pc)))
          (local.set $c2 (v128.load (i32.add (local.get $pc) (local.get $nb))))
          (local.set $c3 (v128.load offset=16 (i32.add (local.get $pc) (local.get $nb))))
          (local.set $c4 (v128.load (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1)))))
          (local.set $c5 (v128.load offset=16 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1)))))
          (local.set $c6 (v128.load (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3)))))
          (local.set $c7 (v128.load offset=16 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3)))))
          (local.set $pa (i32.add (local.get $A) (i32.add (i32.mul (local.get $k0) (local.get $ma)) (i32.shl (local.get $i) (i32.const 2)))))
          (local.set $pb (i32.add (local.get $B) (i32.add (i32.mul (local.get $k0) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
          (local.set $k (local.get $k0))
          (block $k_end (loop $k_loop
            (br_if $k_end (i32.ge_u (local.get $k) (local.get $k1)))
            (local.set $a (v128.load (local.get $pa)))
            (local.set $b0 (v128.load (local.get $pb)))
            (local.set $b1 (v128.load offset=16 (local.get $pb)))
            (local.set $s (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $a) (local.get $a)))
            (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $a) (local.get $a)))
            (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $a) (local.get $a)))
            (local.set $c4 (f32x4.add (local.get $c4) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c5 (f32x4.add (local.get $c5) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15 (local.get $a) (local.get $a)))
            (local.set $c6 (f32x4.add (local.get $c6) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c7 (f32x4.add (local.get $c7) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
            (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $k_loop)))
          (v128.store (local.get $pc) (local.get $c0))
          (v128.store offset=16 (local.get $pc) (local.get $c1))
          (v128.store (i32.add (local.get $pc) (local.get $nb)) (local.get $c2))
          (v128.store offset=16 (i32.add (local.get $pc) (local.get $nb)) (local.get $c3))
          (v128.store (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $c4))
          (v128.store offset=16 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $c5))
          (v128.store (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $c6))
          (v128.store offset=16 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $c7))
          (local.set $j (i32.add (local.get $j) (i32.const 8)))
          (br $j_loop)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $i_loop)))
      (local.set $k0 (local.get $k1))
      (br $kb_loop)))
    ;; S[i] = sum over k of A[k, i] (the bias gradient, when S is not 0)
    (if (local.get $S)
      (then
        (memory.fill (local.get $S) (i32.const 0) (local.get $ma))
        (local.set $pa (local.get $A))
        (local.set $k (i32.const 0))
        (block $s_end (loop $s_loop
          (br_if $s_end (i32.ge_u (local.get $k) (local.get $K)))
          (local.set $i (i32.const 0))
          (block $si_end (loop $si_loop
            (br_if $si_end (i32.ge_u (local.get $i) (local.get $ma)))
            (v128.store (i32.add (local.get $S) (local.get $i))
              (f32x4.add (v128.load (i32.add (local.get $S) (local.get $i))) (v128.load (i32.add (local.get $pa) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $si_loop)))
          (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $s_loop)))))))
