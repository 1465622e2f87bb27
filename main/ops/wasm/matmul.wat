;; Matrix products of our own in WebAssembly SIMD, on the wasm backend's heap, with both operands
;; read as they lie (tfjs's wasm BatchMatMul packs its right operand, XNNPACK, at every call with a
;; fresh one, and takes only untransposed operands: transposes are copies first):
;;   ab:  C [M, N] = A [M, K] B [K, N] (+ bias [N] when bias is not 0), the affine map's forward
;;        (B = W^T) and its input gradient (B = W). Each step of k broadcasts one value of each of
;;        four rows of A (load32_splat) against eight of B's row (two loads) into a 4 x 8 tile of C
;;        held in eight registers; the last M mod 4 rows as 1 x 8 tiles. ~58 GFLOP/s on one core
;;        (XNNPACK's ~40 there: [4096, 32] x [32, 32] 0.15 against 0.21 ms).
;;   atb: C [M, N] = A^T B, A [K, M], B [K, N] (+ A's column sums into S when S is not 0), the
;;        weight gradient dy^T x and the bias gradient; only C's rows (and S's values) i0 .. i1
;;        (i0 a multiple of 4), so that threads can each take a share. Each step of k takes four values of
;;        A's row (four load32_splat: one load and four shuffles measured 664 against 644 us at
;;        [841, 128]^T [841, 128]) and eight of B's; k runs in blocks of 32 rows so that a block's
;;        rows of A and B stay in L1 across C's tiles (256 rows: 644 -> 493 us there; [256, 128]^T
;;        [256, 128] 198 -> 150 us; M = 32 alike). ~50-56 GFLOP/s: [32, 4096]^T [4096, 32] 0.17 ms
;;        against tfjs's transpose (0.1 ms) and product with a freshly packed operand (0.44 ms).
;;   abt: C [M, N] = A B^T (+ bias), B [N, K]: the forward with W [N, K] as it lies (see there).
;; ab's N must be a multiple of 8 (the callers fall back to tfjs otherwise); abt and atb take any
;; shape, atb's last N mod 8 columns and M mod 4 rows after its tiles (cols_tail, rows_tail).
;; Written by hand: tfjs's wasm build has no product that reads transposed operands in place.
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "ab") (param $A i32) (param $B i32) (param $C i32) (param $M i32) (param $K i32) (param $N i32) (param $bias i32)
    (local $i i32) (local $j i32) (local $k i32) (local $kb i32) (local $nb i32) (local $m4 i32)
    (local $pa i32) (local $pb i32) (local $pc i32) (local $end i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128) (local $c5 v128) (local $c6 v128) (local $c7 v128)
    (local $b0 v128) (local $b1 v128) (local $s v128) (local $z0 v128) (local $z1 v128)
    (local.set $kb (i32.shl (local.get $K) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    (block $j_end (loop $j_loop
      (br_if $j_end (i32.ge_u (local.get $j) (local.get $N)))
      ;; the bias (or zeros) for these 8 columns
      (if (local.get $bias)
        (then
          (local.set $z0 (v128.load (i32.add (local.get $bias) (i32.shl (local.get $j) (i32.const 2)))))
          (local.set $z1 (v128.load offset=16 (i32.add (local.get $bias) (i32.shl (local.get $j) (i32.const 2))))))
        (else
          (local.set $z0 (v128.const i32x4 0 0 0 0))
          (local.set $z1 (v128.const i32x4 0 0 0 0))))
      (local.set $i (i32.const 0))
      ;; rows four at a time
      (block $i_end (loop $i_loop
        (br_if $i_end (i32.ge_u (local.get $i) (local.get $m4)))
        (local.set $c0 (local.get $z0)) (local.set $c1 (local.get $z1))
        (local.set $c2 (local.get $z0)) (local.set $c3 (local.get $z1))
        (local.set $c4 (local.get $z0)) (local.set $c5 (local.get $z1))
        (local.set $c6 (local.get $z0)) (local.set $c7 (local.get $z1))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $kb))))
        (local.set $end (i32.add (local.get $pa) (local.get $kb)))
        (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
        (block $k_end (loop $k_loop
          (br_if $k_end (i32.ge_u (local.get $pa) (local.get $end)))
          (local.set $b0 (v128.load (local.get $pb)))
          (local.set $b1 (v128.load offset=16 (local.get $pb)))
          (local.set $s (v128.load32_splat (local.get $pa)))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $s) (local.get $b0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $s) (local.get $b1))))
          (local.set $s (v128.load32_splat (i32.add (local.get $pa) (local.get $kb))))
          (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $s) (local.get $b0))))
          (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $s) (local.get $b1))))
          (local.set $s (v128.load32_splat (i32.add (local.get $pa) (i32.shl (local.get $kb) (i32.const 1)))))
          (local.set $c4 (f32x4.add (local.get $c4) (f32x4.mul (local.get $s) (local.get $b0))))
          (local.set $c5 (f32x4.add (local.get $c5) (f32x4.mul (local.get $s) (local.get $b1))))
          (local.set $s (v128.load32_splat (i32.add (local.get $pa) (i32.mul (local.get $kb) (i32.const 3)))))
          (local.set $c6 (f32x4.add (local.get $c6) (f32x4.mul (local.get $s) (local.get $b0))))
          (local.set $c7 (f32x4.add (local.get $c7) (f32x4.mul (local.get $s) (local.get $b1))))
          (local.set $pa (i32.add (local.get $pa) (i32.const 4)))
          (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
          (br $k_loop)))
        (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
        (v128.store (local.get $pc) (local.get $c0))
        (v128.store offset=16 (local.get $pc) (local.get $c1))
        (v128.store (i32.add (local.get $pc) (local.get $nb)) (local.get $c2))
        (v128.store offset=16 (i32.add (local.get $pc) (local.get $nb)) (local.get $c3))
        (v128.store (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $c4))
        (v128.store offset=16 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $c5))
        (v128.store (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $c6))
        (v128.store offset=16 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $c7))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $i_loop)))
      ;; the last M mod 4 rows one at a time
      (block $r_end (loop $r_loop
        (br_if $r_end (i32.ge_u (local.get $i) (local.get $M)))
        (local.set $c0 (local.get $z0)) (local.set $c1 (local.get $z1))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $kb))))
        (local.set $end (i32.add (local.get $pa) (local.get $kb)))
        (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
        (block $rk_end (loop $rk_loop
          (br_if $rk_end (i32.ge_u (local.get $pa) (local.get $end)))
          (local.set $s (v128.load32_splat (local.get $pa)))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $s) (v128.load (local.get $pb)))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $s) (v128.load offset=16 (local.get $pb)))))
          (local.set $pa (i32.add (local.get $pa) (i32.const 4)))
          (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
          (br $rk_loop)))
        (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
        (v128.store (local.get $pc) (local.get $c0))
        (v128.store offset=16 (local.get $pc) (local.get $c1))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $r_loop)))
      (local.set $j (i32.add (local.get $j) (i32.const 8)))
      (br $j_loop))))

;; abt: C = A B^T (+ bias), B [N, K] as it lies (an affine map's forward with B = W, no transpose),
  ;; then max(C, 0) when relu is not 0 (a ReLU layer's forward in the same pass):
  ;; a 4 x 2 tile of C at a time, each value a dot product along k four lanes wide (any K), reduced
  ;; across lanes at the tile's end; the last M mod 4 rows as 1 x 2 tiles. For an odd N the last
  ;; column reads B's last row twice and stores one value per row.
  (func (export "abt") (param $A i32) (param $B i32) (param $C i32) (param $M i32) (param $K i32) (param $N i32) (param $bias i32) (param $relu i32)
    (local $i i32) (local $j i32) (local $k i32) (local $kb i32) (local $kb4 i32) (local $nb i32) (local $m4 i32)
    (local $pa i32) (local $pb i32) (local $pb1 i32) (local $pc i32) (local $one i32) (local $lo v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128) (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $b0 v128) (local $b1 v128) (local $z v128)
    (local.set $kb (i32.shl (local.get $K) (i32.const 2)))
    (local.set $kb4 (i32.shl (i32.and (local.get $K) (i32.const -4)) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    ;; the floor C is raised to: 0 for a ReLU, -inf otherwise (max keeps a NaN, as PyTorch's relu)
    (if (local.get $relu)
      (then (local.set $lo (v128.const i32x4 0 0 0 0)))
      (else (local.set $lo (v128.const f32x4 -inf -inf -inf -inf))))
    (block $j_end (loop $j_loop
      (br_if $j_end (i32.ge_u (local.get $j) (local.get $N)))
      ;; one column left (an odd N): its row of B read twice, one value stored per row
      (local.set $one (i32.eq (i32.add (local.get $j) (i32.const 1)) (local.get $N)))
      ;; the bias (or zeros) of these 2 columns, twice: [b_j, b_j+1, b_j, b_j+1]
      (if (local.get $bias)
        (then (local.set $z (if (result v128) (local.get $one)
          (then (f32x4.splat (f32.load (i32.add (local.get $bias) (i32.shl (local.get $j) (i32.const 2))))))
          (else (v128.load64_splat (i32.add (local.get $bias) (i32.shl (local.get $j) (i32.const 2))))))))
        (else (local.set $z (v128.const i32x4 0 0 0 0))))
      (local.set $pb (i32.add (local.get $B) (i32.mul (local.get $j) (local.get $kb))))
      (local.set $pb1 (select (local.get $pb) (i32.add (local.get $pb) (local.get $kb)) (local.get $one)))
      (local.set $i (i32.const 0))
      (block $i_end (loop $i_loop
        (br_if $i_end (i32.ge_u (local.get $i) (local.get $m4)))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $kb))))
        (local.set $c00 (v128.const i32x4 0 0 0 0)) (local.set $c01 (v128.const i32x4 0 0 0 0))
        (local.set $c10 (v128.const i32x4 0 0 0 0)) (local.set $c11 (v128.const i32x4 0 0 0 0))
        (local.set $c20 (v128.const i32x4 0 0 0 0)) (local.set $c21 (v128.const i32x4 0 0 0 0))
        (local.set $c30 (v128.const i32x4 0 0 0 0)) (local.set $c31 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $k_end (loop $k_loop
          (br_if $k_end (i32.ge_u (local.get $k) (local.get $kb4)))
          (local.set $b0 (v128.load (i32.add (local.get $pb) (local.get $k))))
          (local.set $b1 (v128.load (i32.add (local.get $pb1) (local.get $k))))
          (local.set $a0 (v128.load (i32.add (local.get $pa) (local.get $k))))
          (local.set $a1 (v128.load (i32.add (i32.add (local.get $pa) (local.get $kb)) (local.get $k))))
          (local.set $a2 (v128.load (i32.add (i32.add (local.get $pa) (i32.shl (local.get $kb) (i32.const 1))) (local.get $k))))
          (local.set $a3 (v128.load (i32.add (i32.add (local.get $pa) (i32.mul (local.get $kb) (i32.const 3))) (local.get $k))))
          (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $a0) (local.get $b0))))
          (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $a0) (local.get $b1))))
          (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $a1) (local.get $b0))))
          (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $a1) (local.get $b1))))
          (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $a2) (local.get $b0))))
          (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $a2) (local.get $b1))))
          (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $a3) (local.get $b0))))
          (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $a3) (local.get $b1))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br $k_loop)))
        ;; the last K mod 4 values of k: B's in lane 0 only, A's in every lane
        (block $t_end (loop $t_loop
          (br_if $t_end (i32.ge_u (local.get $k) (local.get $kb)))
          (local.set $b0 (f32x4.replace_lane 0 (v128.const i32x4 0 0 0 0) (f32.load (i32.add (local.get $pb) (local.get $k)))))
          (local.set $b1 (f32x4.replace_lane 0 (v128.const i32x4 0 0 0 0) (f32.load (i32.add (local.get $pb1) (local.get $k)))))
          (local.set $a0 (f32x4.splat (f32.load (i32.add (local.get $pa) (local.get $k)))))
          (local.set $a1 (f32x4.splat (f32.load (i32.add (i32.add (local.get $pa) (local.get $kb)) (local.get $k)))))
          (local.set $a2 (f32x4.splat (f32.load (i32.add (i32.add (local.get $pa) (i32.shl (local.get $kb) (i32.const 1))) (local.get $k)))))
          (local.set $a3 (f32x4.splat (f32.load (i32.add (i32.add (local.get $pa) (i32.mul (local.get $kb) (i32.const 3))) (local.get $k)))))
          (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $a0) (local.get $b0))))
          (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $a0) (local.get $b1))))
          (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $a1) (local.get $b0))))
          (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $a1) (local.get $b1))))
          (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $a2) (local.get $b0))))
          (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $a2) (local.get $b1))))
          (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $a3) (local.get $b0))))
          (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $a3) (local.get $b1))))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $t_loop)))
        ;; per row r: s_r = [x0+x2, x1+x3, y0+y2, y1+y3] of its two dot vectors x, y; rows r, q
        ;; together: [s_r0+s_r1, s_r2+s_r3, s_q0+s_q1, s_q2+s_q3] = C[r, j..j+1], C[q, j..j+1]
        (local.set $a0 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c00) (local.get $c01))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c00) (local.get $c01))))
        (local.set $a1 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c10) (local.get $c11))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c10) (local.get $c11))))
        (local.set $a2 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c20) (local.get $c21))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c20) (local.get $c21))))
        (local.set $a3 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c30) (local.get $c31))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c30) (local.get $c31))))
        (local.set $b0 (f32x4.add (local.get $z) (f32x4.add
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a0) (local.get $a1))
          (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a0) (local.get $a1)))))
        (local.set $b1 (f32x4.add (local.get $z) (f32x4.add
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a2) (local.get $a3))
          (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a2) (local.get $a3)))))
        (local.set $b0 (f32x4.max (local.get $b0) (local.get $lo)))
        (local.set $b1 (f32x4.max (local.get $b1) (local.get $lo)))
        (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
        (if (local.get $one)
          (then
            (v128.store32_lane 0 (local.get $pc) (local.get $b0))
            (v128.store32_lane 2 (i32.add (local.get $pc) (local.get $nb)) (local.get $b0))
            (v128.store32_lane 0 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $b1))
            (v128.store32_lane 2 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $b1)))
          (else
            (v128.store64_lane 0 (local.get $pc) (local.get $b0))
            (v128.store64_lane 1 (i32.add (local.get $pc) (local.get $nb)) (local.get $b0))
            (v128.store64_lane 0 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $b1))
            (v128.store64_lane 1 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $b1))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $i_loop)))
      ;; the last M mod 4 rows one at a time
      (block $r_end (loop $r_loop
        (br_if $r_end (i32.ge_u (local.get $i) (local.get $M)))
        (local.set $pa (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $kb))))
        (local.set $c00 (v128.const i32x4 0 0 0 0)) (local.set $c01 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $rk_end (loop $rk_loop
          (br_if $rk_end (i32.ge_u (local.get $k) (local.get $kb4)))
          (local.set $a0 (v128.load (i32.add (local.get $pa) (local.get $k))))
          (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $a0) (v128.load (i32.add (local.get $pb) (local.get $k))))))
          (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $a0) (v128.load (i32.add (local.get $pb1) (local.get $k))))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br $rk_loop)))
        (block $rt_end (loop $rt_loop
          (br_if $rt_end (i32.ge_u (local.get $k) (local.get $kb)))
          (local.set $a0 (f32x4.splat (f32.load (i32.add (local.get $pa) (local.get $k)))))
          (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $a0) (f32x4.replace_lane 0 (v128.const i32x4 0 0 0 0) (f32.load (i32.add (local.get $pb) (local.get $k)))))))
          (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $a0) (f32x4.replace_lane 0 (v128.const i32x4 0 0 0 0) (f32.load (i32.add (local.get $pb1) (local.get $k)))))))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $rt_loop)))
        (local.set $a0 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c00) (local.get $c01))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c00) (local.get $c01))))
        (local.set $b0 (f32x4.add (local.get $z) (f32x4.add
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a0) (local.get $a0))
          (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a0) (local.get $a0)))))
        (local.set $b0 (f32x4.max (local.get $b0) (local.get $lo)))
        (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
        (if (local.get $one)
          (then (v128.store32_lane 0 (local.get $pc) (local.get $b0)))
          (else (v128.store64_lane 0 (local.get $pc) (local.get $b0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $r_loop)))
      (local.set $j (i32.add (local.get $j) (i32.const 2)))
      (br $j_loop))))

  (func (export "atb") (param $A i32) (param $B i32) (param $C i32) (param $K i32) (param $M i32) (param $N i32) (param $S i32) (param $i0 i32) (param $i1 i32)
    (local $k0 i32) (local $k1 i32) (local $i i32) (local $j i32) (local $k i32)
    (local $pa i32) (local $pb i32) (local $pc i32) (local $ma i32) (local $nb i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128) (local $c5 v128) (local $c6 v128) (local $c7 v128)
    (local $a v128) (local $b0 v128) (local $b1 v128) (local $s v128) (local $n8 i32) (local $i4 i32)
    (local.set $ma (i32.shl (local.get $M) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    ;; 4 x 8 tiles up to column n8 and row i4; the rest after them (cols_tail, rows_tail)
    (local.set $n8 (i32.and (local.get $N) (i32.const -8)))
    (local.set $i4 (i32.add (local.get $i0) (i32.and (i32.sub (local.get $i1) (local.get $i0)) (i32.const -4))))
    ;; zero C's rows i0 .. i1
    (memory.fill (i32.add (local.get $C) (i32.mul (local.get $i0) (local.get $nb))) (i32.const 0) (i32.mul (i32.sub (local.get $i1) (local.get $i0)) (local.get $nb)))
    (block $kb_end (loop $kb_loop
      (br_if $kb_end (i32.ge_u (local.get $k0) (local.get $K)))
      (local.set $k1 (select (local.get $K) (i32.add (local.get $k0) (i32.const 32)) (i32.lt_u (local.get $K) (i32.add (local.get $k0) (i32.const 32)))))
      (local.set $i (local.get $i0))
      (block $i_end (loop $i_loop
        (br_if $i_end (i32.ge_u (local.get $i) (local.get $i4)))
        (local.set $j (i32.const 0))
        (block $j_end (loop $j_loop
          (br_if $j_end (i32.ge_u (local.get $j) (local.get $n8)))
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
            (local.set $b0 (v128.load (local.get $pb)))
            (local.set $b1 (v128.load offset=16 (local.get $pb)))
            (local.set $s (v128.load32_splat (local.get $pa)))
            (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (v128.load32_splat offset=4 (local.get $pa)))
            (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (v128.load32_splat offset=8 (local.get $pa)))
            (local.set $c4 (f32x4.add (local.get $c4) (f32x4.mul (local.get $s) (local.get $b0))))
            (local.set $c5 (f32x4.add (local.get $c5) (f32x4.mul (local.get $s) (local.get $b1))))
            (local.set $s (v128.load32_splat offset=12 (local.get $pa)))
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
    (call $cols_tail (local.get $A) (local.get $B) (local.get $C) (local.get $K) (local.get $M) (local.get $N) (local.get $n8) (local.get $i0) (local.get $i4))
    ;; S[i] = sum over k of A[k, i] for i in i0 .. i4 (the bias gradient, when S is not 0; rows_tail the rest)
    (if (local.get $S)
      (then
        (memory.fill (i32.add (local.get $S) (i32.shl (local.get $i0) (i32.const 2))) (i32.const 0) (i32.shl (i32.sub (local.get $i1) (local.get $i0)) (i32.const 2)))
        (local.set $pa (local.get $A))
        (local.set $k (i32.const 0))
        (block $s_end (loop $s_loop
          (br_if $s_end (i32.ge_u (local.get $k) (local.get $K)))
          (local.set $i (i32.shl (local.get $i0) (i32.const 2)))
          (block $si_end (loop $si_loop
            (br_if $si_end (i32.ge_u (local.get $i) (i32.shl (local.get $i4) (i32.const 2))))
            (v128.store (i32.add (local.get $S) (local.get $i))
              (f32x4.add (v128.load (i32.add (local.get $S) (local.get $i))) (v128.load (i32.add (local.get $pa) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $si_loop)))
          (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $s_loop)))))
    ;; after the sums' zeroing, which covers rows_tail's too
    (call $rows_tail (local.get $A) (local.get $B) (local.get $C) (local.get $K) (local.get $M) (local.get $N) (local.get $S) (local.get $i4) (local.get $i1)))

  ;; atb's columns n8 .. N (N mod 8 of them) for rows i0 .. i4 (a multiple of 4 of them): each
  ;; column along k, rows of A four lanes wide against one value of B, sixteen rows at a time
  ;; (four independent sums), then four.
  (func $cols_tail (param $A i32) (param $B i32) (param $C i32) (param $K i32) (param $M i32) (param $N i32) (param $n8 i32) (param $i0 i32) (param $i4 i32)
    (local $i i32) (local $j i32) (local $k i32) (local $pa i32) (local $pb i32) (local $pc i32) (local $ma i32) (local $nb i32) (local $w i32)
    (local $b v128) (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $ma (i32.shl (local.get $M) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    (local.set $j (local.get $n8))
    (block $j_end (loop $j_loop
      (br_if $j_end (i32.ge_u (local.get $j) (local.get $N)))
      (local.set $i (local.get $i0))
      (block $i_end (loop $i_loop
        (br_if $i_end (i32.ge_u (local.get $i) (local.get $i4)))
        ;; w: 16 rows when that many are left, else 4
        (local.set $w (select (i32.const 16) (i32.const 4) (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $i4))))
        (local.set $c0 (v128.const i32x4 0 0 0 0)) (local.set $c1 (v128.const i32x4 0 0 0 0))
        (local.set $c2 (v128.const i32x4 0 0 0 0)) (local.set $c3 (v128.const i32x4 0 0 0 0))
        (local.set $pa (i32.add (local.get $A) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $k (i32.const 0))
        (if (i32.eq (local.get $w) (i32.const 16))
          (then
            (block $k_end (loop $k_loop
              (br_if $k_end (i32.ge_u (local.get $k) (local.get $K)))
              (local.set $b (v128.load32_splat (local.get $pb)))
              (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (v128.load (local.get $pa)) (local.get $b))))
              (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (v128.load offset=16 (local.get $pa)) (local.get $b))))
              (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (v128.load offset=32 (local.get $pa)) (local.get $b))))
              (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (v128.load offset=48 (local.get $pa)) (local.get $b))))
              (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
              (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br $k_loop))))
          (else
            (block $k4_end (loop $k4_loop
              (br_if $k4_end (i32.ge_u (local.get $k) (local.get $K)))
              (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (v128.load (local.get $pa)) (v128.load32_splat (local.get $pb)))))
              (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
              (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br $k4_loop)))))
        (local.set $pc (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))))
        (call $store_column (local.get $pc) (local.get $nb) (local.get $c0))
        (if (i32.eq (local.get $w) (i32.const 16))
          (then
            (call $store_column (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 2))) (local.get $nb) (local.get $c1))
            (call $store_column (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 3))) (local.get $nb) (local.get $c2))
            (call $store_column (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 12))) (local.get $nb) (local.get $c3))))
        (local.set $i (i32.add (local.get $i) (local.get $w)))
        (br $i_loop)))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $j_loop))))

  ;; four values down a column of C, a row (nb bytes) apart
  (func $store_column (param $pc i32) (param $nb i32) (param $v v128)
    (v128.store32_lane 0 (local.get $pc) (local.get $v))
    (v128.store32_lane 1 (i32.add (local.get $pc) (local.get $nb)) (local.get $v))
    (v128.store32_lane 2 (i32.add (local.get $pc) (i32.shl (local.get $nb) (i32.const 1))) (local.get $v))
    (v128.store32_lane 3 (i32.add (local.get $pc) (i32.mul (local.get $nb) (i32.const 3))) (local.get $v)))

  ;; atb's last rows i4 .. i1 (M mod 4 of them, in the chunk that ends at M), every column, one
  ;; value at a time, and their column sums into S when S is not 0.
  (func $rows_tail (param $A i32) (param $B i32) (param $C i32) (param $K i32) (param $M i32) (param $N i32) (param $S i32) (param $i4 i32) (param $i1 i32)
    (local $i i32) (local $j i32) (local $k i32) (local $pa i32) (local $pb i32) (local $ma i32) (local $nb i32) (local $t f32)
    (local.set $ma (i32.shl (local.get $M) (i32.const 2)))
    (local.set $nb (i32.shl (local.get $N) (i32.const 2)))
    (local.set $i (local.get $i4))
    (block $i_end (loop $i_loop
      (br_if $i_end (i32.ge_u (local.get $i) (local.get $i1)))
      (local.set $j (i32.const -1))
      ;; j = -1: the column sum of A's column i; j = 0 .. N - 1: C[i, j]
      (block $j_end (loop $j_loop
        (br_if $j_end (i32.ge_s (local.get $j) (local.get $N)))
        (local.set $t (f32.const 0))
        (local.set $pa (i32.add (local.get $A) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $pb (i32.add (local.get $B) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $k (i32.const 0))
        (block $k_end (loop $k_loop
          (br_if $k_end (i32.ge_u (local.get $k) (local.get $K)))
          (local.set $t (f32.add (local.get $t)
            (if (result f32) (i32.lt_s (local.get $j) (i32.const 0))
              (then (f32.load (local.get $pa)))
              (else (f32.mul (f32.load (local.get $pa)) (f32.load (local.get $pb)))))))
          (local.set $pa (i32.add (local.get $pa) (local.get $ma)))
          (local.set $pb (i32.add (local.get $pb) (local.get $nb)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $k_loop)))
        (if (i32.lt_s (local.get $j) (i32.const 0))
          (then (if (local.get $S) (then (f32.store (i32.add (local.get $S) (i32.shl (local.get $i) (i32.const 2))) (local.get $t)))))
          (else (f32.store (i32.add (local.get $C) (i32.add (i32.mul (local.get $i) (local.get $nb)) (i32.shl (local.get $j) (i32.const 2)))) (local.get $t))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $j_loop)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $i_loop))))
)
