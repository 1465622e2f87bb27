;; FNO's per-mode complex channel mixing in WebAssembly SIMD, on the wasm backend's own heap (the
;; memory is tfjs's, imported). Written by hand because no library kernel mixes complex channels per
;; mode in these layouts; scripts/build-wasm.mjs assembles it (wabt) into spectral-mix-wasm.ts.
;; memory: the wasm backend's (a plain or a shared one: two binaries)
;;
;; A block is one (sample, channel) of a spectrum: [P, 2, Q] floats (mode rows p; re then im; modes
;; q innermost). `cmix` computes, for every output block (m, n) and position (p, q),
;;   Y[m, n] = sum over k < K of L[m, k] (.) R[k, n]
;; where (.) is a complex product, one operand conjugated by `mode`: 0 L R, 1 conj(L) R, 2 L conj(R).
;; The blocks of L and R are found by byte strides (lm, lk; rk, rn), so one loop serves the forward
;; (L = X, R = W), the input gradient (L = dY, R = W conjugated) and the weight gradient (L = X
;; conjugated, R = dY, k = the batch). Four lanes of q at a time; the sums a r, c s, a s, c r are
;; kept apart and combined once per output, so each term costs four multiplies and four adds.
(module
  (import "env" "memory" (memory 0))
  (func (export "cmix")
    (param $L i32) (param $lm i32) (param $lk i32)
    (param $R i32) (param $rk i32) (param $rn i32)
    (param $Y i32) (param $M i32) (param $N i32) (param $K i32)
    (param $P i32) (param $Q i32) (param $mode i32)
    (local $m i32) (local $n i32) (local $p i32) (local $q i32) (local $k i32)
    (local $qb i32) (local $sb i32) (local $q4 i32) (local $off i32)
    (local $lrow i32) (local $rcol i32) (local $yblk i32)
    (local $la i32) (local $ra i32) (local $ya i32)
    (local $t1 v128) (local $t2 v128) (local $t3 v128) (local $t4 v128)
    (local $a v128) (local $c v128) (local $r v128) (local $s v128)
    (local $u1 f32) (local $u2 f32) (local $u3 f32) (local $u4 f32)
    (local $fa f32) (local $fc f32) (local $fr f32) (local $fs f32)
    (local.set $qb (i32.shl (local.get $Q) (i32.const 2)))
    (local.set $sb (i32.mul (i32.shl (local.get $P) (i32.const 1)) (local.get $qb)))
    (local.set $q4 (i32.and (local.get $Q) (i32.const -4)))
    (local.set $m (i32.const 0))
    (block $m_end (loop $m_loop
      (br_if $m_end (i32.ge_u (local.get $m) (local.get $M)))
      (local.set $n (i32.const 0))
      (block $n_end (loop $n_loop
        (br_if $n_end (i32.ge_u (local.get $n) (local.get $N)))
        (local.set $lrow (i32.add (local.get $L) (i32.mul (local.get $m) (local.get $lm))))
        (local.set $rcol (i32.add (local.get $R) (i32.mul (local.get $n) (local.get $rn))))
        (local.set $yblk (i32.add (local.get $Y)
          (i32.mul (i32.add (i32.mul (local.get $m) (local.get $N)) (local.get $n)) (local.get $sb))))
        (local.set $p (i32.const 0))
        (block $p_end (loop $p_loop
          (br_if $p_end (i32.ge_u (local.get $p) (local.get $P)))
          (local.set $off (i32.mul (i32.shl (local.get $p) (i32.const 1)) (local.get $qb)))
          (local.set $q (i32.const 0))
          ;; four modes at a time
          (block $v_end (loop $v_loop
            (br_if $v_end (i32.ge_u (local.get $q) (local.get $q4)))
            (local.set $la (i32.add (local.get $lrow) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $ra (i32.add (local.get $rcol) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $t1 (v128.const i32x4 0 0 0 0))
            (local.set $t2 (v128.const i32x4 0 0 0 0))
            (local.set $t3 (v128.const i32x4 0 0 0 0))
            (local.set $t4 (v128.const i32x4 0 0 0 0))
            (local.set $k (i32.const 0))
            (block $k_end (loop $k_loop
              (br_if $k_end (i32.ge_u (local.get $k) (local.get $K)))
              (local.set $a (v128.load (local.get $la)))
              (local.set $c (v128.load (i32.add (local.get $la) (local.get $qb))))
              (local.set $r (v128.load (local.get $ra)))
              (local.set $s (v128.load (i32.add (local.get $ra) (local.get $qb))))
              (local.set $t1 (f32x4.add (local.get $t1) (f32x4.mul (local.get $a) (local.get $r))))
              (local.set $t2 (f32x4.add (local.get $t2) (f32x4.mul (local.get $c) (local.get $s))))
              (local.set $t3 (f32x4.add (local.get $t3) (f32x4.mul (local.get $a) (local.get $s))))
              (local.set $t4 (f32x4.add (local.get $t4) (f32x4.mul (local.get $c) (local.get $r))))
              (local.set $la (i32.add (local.get $la) (local.get $lk)))
              (local.set $ra (i32.add (local.get $ra) (local.get $rk)))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br $k_loop)))
            (local.set $ya (i32.add (local.get $yblk) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (v128.store (local.get $ya)
              (if (result v128) (local.get $mode)
                (then (f32x4.add (local.get $t1) (local.get $t2)))
                (else (f32x4.sub (local.get $t1) (local.get $t2)))))
            (v128.store (i32.add (local.get $ya) (local.get $qb))
              (if (result v128) (i32.eqz (local.get $mode))
                (then (f32x4.add (local.get $t3) (local.get $t4)))
                (else (if (result v128) (i32.eq (local.get $mode) (i32.const 1))
                  (then (f32x4.sub (local.get $t3) (local.get $t4)))
                  (else (f32x4.sub (local.get $t4) (local.get $t3)))))))
            (local.set $q (i32.add (local.get $q) (i32.const 4)))
            (br $v_loop)))
          ;; the modes left over (Q not a multiple of 4), one at a time
          (block $s_end (loop $s_loop
            (br_if $s_end (i32.ge_u (local.get $q) (local.get $Q)))
            (local.set $la (i32.add (local.get $lrow) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $ra (i32.add (local.get $rcol) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $u1 (f32.const 0))
            (local.set $u2 (f32.const 0))
            (local.set $u3 (f32.const 0))
            (local.set $u4 (f32.const 0))
            (local.set $k (i32.const 0))
            (block $sk_end (loop $sk_loop
              (br_if $sk_end (i32.ge_u (local.get $k) (local.get $K)))
              (local.set $fa (f32.load (local.get $la)))
              (local.set $fc (f32.load (i32.add (local.get $la) (local.get $qb))))
              (local.set $fr (f32.load (local.get $ra)))
              (local.set $fs (f32.load (i32.add (local.get $ra) (local.get $qb))))
              (local.set $u1 (f32.add (local.get $u1) (f32.mul (local.get $fa) (local.get $fr))))
              (local.set $u2 (f32.add (local.get $u2) (f32.mul (local.get $fc) (local.get $fs))))
              (local.set $u3 (f32.add (local.get $u3) (f32.mul (local.get $fa) (local.get $fs))))
              (local.set $u4 (f32.add (local.get $u4) (f32.mul (local.get $fc) (local.get $fr))))
              (local.set $la (i32.add (local.get $la) (local.get $lk)))
              (local.set $ra (i32.add (local.get $ra) (local.get $rk)))
              (local.set $k (i32.add (local.get $k) (i32.const 1)))
              (br $sk_loop)))
            (local.set $ya (i32.add (local.get $yblk) (i32.add (local.get $off) (i32.shl (local.get $q) (i32.const 2)))))
            (f32.store (local.get $ya)
              (if (result f32) (local.get $mode)
                (then (f32.add (local.get $u1) (local.get $u2)))
                (else (f32.sub (local.get $u1) (local.get $u2)))))
            (f32.store (i32.add (local.get $ya) (local.get $qb))
              (if (result f32) (i32.eqz (local.get $mode))
                (then (f32.add (local.get $u3) (local.get $u4)))
                (else (if (result f32) (i32.eq (local.get $mode) (i32.const 1))
                  (then (f32.sub (local.get $u3) (local.get $u4)))
                  (else (f32.sub (local.get $u4) (local.get $u3)))))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $s_loop)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $p_loop)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $n_loop)))
      (local.set $m (i32.add (local.get $m) (i32.const 1)))
      (br $m_loop))))

;; A weight tensor's layout [C, Co, Qg, P, 2] (re/im innermost) to and from the spectrum's: each
  ;; channel pair (i, o) a block [P, 2, Q] at block index i bi + o bo (i-major: bi = Co, bo = 1;
  ;; o-major: bi = 1, bo = C), its modes at q = g Qg + qq. `toSpectrum` 1 copies w into wt, 0 wt into
  ;; w; w is read (or written) in order. The forward mixes with o-major blocks and the input gradient
  ;; with i-major ones, so that consecutive terms of a sum are one block apart: blocks Co apart are a
  ;; multiple of 4 KiB apart at the paper's sizes, and such loads all fall in one cache set (the
  ;; forward took 0.68 ms instead of 0.31).
  (func (export "permute")
    (param $w i32) (param $wt i32) (param $C i32) (param $Co i32) (param $bi i32) (param $bo i32)
    (param $P i32) (param $Qg i32) (param $Q i32) (param $g i32) (param $toSpectrum i32)
    (local $i i32) (local $o i32) (local $qq i32) (local $p i32) (local $src i32) (local $dst i32) (local $qb i32) (local $blk i32)
    (local.set $qb (i32.shl (local.get $Q) (i32.const 2)))
    (local.set $src (local.get $w))
    (local.set $i (i32.const 0))
    (block $i_end (loop $i_loop
      (br_if $i_end (i32.ge_u (local.get $i) (local.get $C)))
      (local.set $o (i32.const 0))
      (block $o_end (loop $o_loop
        (br_if $o_end (i32.ge_u (local.get $o) (local.get $Co)))
        (local.set $blk (i32.add (local.get $wt)
          (i32.mul (i32.add (i32.mul (local.get $i) (local.get $bi)) (i32.mul (local.get $o) (local.get $bo)))
            (i32.mul (i32.shl (local.get $P) (i32.const 1)) (local.get $qb)))))
        (local.set $qq (i32.const 0))
        (block $qq_end (loop $qq_loop
          (br_if $qq_end (i32.ge_u (local.get $qq) (local.get $Qg)))
          (local.set $dst (i32.add (local.get $blk)
            (i32.shl (i32.add (i32.mul (local.get $g) (local.get $Qg)) (local.get $qq)) (i32.const 2))))
          (local.set $p (i32.const 0))
          (block $p_end (loop $p_loop
            (br_if $p_end (i32.ge_u (local.get $p) (local.get $P)))
            (if (local.get $toSpectrum)
              (then
                (f32.store (local.get $dst) (f32.load (local.get $src)))
                (f32.store (i32.add (local.get $dst) (local.get $qb)) (f32.load offset=4 (local.get $src))))
              (else
                (f32.store (local.get $src) (f32.load (local.get $dst)))
                (f32.store offset=4 (local.get $src) (f32.load (i32.add (local.get $dst) (local.get $qb))))))
            (local.set $src (i32.add (local.get $src) (i32.const 8)))
            (local.set $dst (i32.add (local.get $dst) (i32.shl (local.get $qb) (i32.const 1))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $p_loop)))
          (local.set $qq (i32.add (local.get $qq) (i32.const 1)))
          (br $qq_loop)))
        (local.set $o (i32.add (local.get $o) (i32.const 1)))
        (br $o_loop)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $i_loop)))))
