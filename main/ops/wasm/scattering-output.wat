;; The efficient scattering's output and its gradient in WebAssembly SIMD, on the wasm backend's
;; heap; the same kernels as main/ops/scattering-output.ts's cpu ones, in float32, with beta =
;; sigmoid(gate) and e = exp(ls) given:
;;   out = e ((1 - beta) num / d + beta yl - h),  d = qk[row] + 1e-6;
;;   with ge = g e and yg = num / d: dnum = ge (1 - beta) / d, dyl = ge beta, dh = -ge, and per row
;;   dqk = -sum ge (1 - beta) yg / d, pg = beta (1 - beta) sum ge (yl - yg), pl = sum ge (y - h).
;; Four values of a row at a time, the last M mod 4 one at a time, all inline (helper functions
;; for the loads and stores, called per four values, made the kernels slower than the composed ops).
;; Written by hand: tfjs has no such kernel, and the composed ops were 63 kernels forward and
;; backward (1.35 ms at [4096, 32]).
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))

  (func $hsum (param $v v128) (result f32)
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
      (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v)))))

  (func (export "forward") (param $num i32) (param $qk i32) (param $yl i32) (param $h i32)
    (param $beta f32) (param $e f32) (param $out i32) (param $R i32) (param $M i32)
    (local $r i32) (local $j i32) (local $m4 i32) (local $a i32) (local $row i32)
    (local $vb v128) (local $vc v128) (local $ve v128) (local $vinv v128)
    (local.set $vb (f32x4.splat (local.get $beta)))
    (local.set $vc (f32x4.splat (f32.sub (f32.const 1) (local.get $beta))))
    (local.set $ve (f32x4.splat (local.get $e)))
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    (block $r_end (loop $r_loop
      (br_if $r_end (i32.ge_u (local.get $r) (local.get $R)))
      (local.set $row (i32.mul (local.get $r) (i32.shl (local.get $M) (i32.const 2))))
      (local.set $vinv (f32x4.splat (f32.div (f32.const 1)
        (f32.add (f32.load (i32.add (local.get $qk) (i32.shl (local.get $r) (i32.const 2)))) (f32.const 1e-6)))))
      (local.set $j (i32.const 0))
      (block $v_end (loop $v_loop
        (br_if $v_end (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (v128.store (i32.add (local.get $out) (local.get $a)) (f32x4.mul (local.get $ve)
            (f32x4.sub
              (f32x4.add (f32x4.mul (f32x4.mul (local.get $vc) (v128.load (i32.add (local.get $num) (local.get $a)))) (local.get $vinv))
                (f32x4.mul (local.get $vb) (v128.load (i32.add (local.get $yl) (local.get $a)))))
              (v128.load (i32.add (local.get $h) (local.get $a))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $v_loop)))
      (block $s_end (loop $s_loop
        (br_if $s_end (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (f32.store (i32.add (local.get $out) (local.get $a)) (f32x4.extract_lane 0 (f32x4.mul (local.get $ve)
            (f32x4.sub
              (f32x4.add (f32x4.mul (f32x4.mul (local.get $vc) (f32x4.splat (f32.load (i32.add (local.get $num) (local.get $a))))) (local.get $vinv))
                (f32x4.mul (local.get $vb) (f32x4.splat (f32.load (i32.add (local.get $yl) (local.get $a))))))
              (f32x4.splat (f32.load (i32.add (local.get $h) (local.get $a))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $s_loop)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $r_loop))))

  (func (export "backward") (param $g i32) (param $num i32) (param $qk i32) (param $yl i32) (param $h i32)
    (param $beta f32) (param $e f32) (param $dnum i32) (param $dqk i32) (param $dyl i32) (param $dh i32)
    (param $pg i32) (param $pl i32) (param $R i32) (param $M i32)
    (local $r i32) (local $j i32) (local $m4 i32) (local $a i32) (local $row i32) (local $ra i32)
    (local $vb v128) (local $vc v128) (local $ve v128) (local $vinv v128)
    (local $ge v128) (local $yg v128) (local $l v128) (local $aq v128) (local $ag v128) (local $al v128)
    (local.set $vb (f32x4.splat (local.get $beta)))
    (local.set $vc (f32x4.splat (f32.sub (f32.const 1) (local.get $beta))))
    (local.set $ve (f32x4.splat (local.get $e)))
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    (block $r_end (loop $r_loop
      (br_if $r_end (i32.ge_u (local.get $r) (local.get $R)))
      (local.set $row (i32.mul (local.get $r) (i32.shl (local.get $M) (i32.const 2))))
      (local.set $ra (i32.shl (local.get $r) (i32.const 2)))
      (local.set $vinv (f32x4.splat (f32.div (f32.const 1) (f32.add (f32.load (i32.add (local.get $qk) (local.get $ra))) (f32.const 1e-6)))))
      (local.set $aq (v128.const i32x4 0 0 0 0))
      (local.set $ag (v128.const i32x4 0 0 0 0))
      (local.set $al (v128.const i32x4 0 0 0 0))
      (local.set $j (i32.const 0))
      (block $v_end (loop $v_loop
        (br_if $v_end (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $ge (f32x4.mul (v128.load (i32.add (local.get $g) (local.get $a))) (local.get $ve)))
        (local.set $yg (f32x4.mul (v128.load (i32.add (local.get $num) (local.get $a))) (local.get $vinv)))
        (local.set $l (v128.load (i32.add (local.get $yl) (local.get $a))))
        (v128.store (i32.add (local.get $dnum) (local.get $a)) (f32x4.mul (f32x4.mul (local.get $ge) (local.get $vc)) (local.get $vinv)))
        (v128.store (i32.add (local.get $dyl) (local.get $a)) (f32x4.mul (local.get $ge) (local.get $vb)))
        (v128.store (i32.add (local.get $dh) (local.get $a)) (f32x4.neg (local.get $ge)))
        (local.set $aq (f32x4.sub (local.get $aq) (f32x4.mul (f32x4.mul (f32x4.mul (local.get $ge) (local.get $vc)) (local.get $yg)) (local.get $vinv))))
        (local.set $ag (f32x4.add (local.get $ag) (f32x4.mul (local.get $ge) (f32x4.sub (local.get $l) (local.get $yg)))))
        (local.set $al (f32x4.add (local.get $al) (f32x4.mul (local.get $ge)
          (f32x4.sub (f32x4.add (f32x4.mul (local.get $vc) (local.get $yg)) (f32x4.mul (local.get $vb) (local.get $l)))
            (v128.load (i32.add (local.get $h) (local.get $a)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $v_loop)))
      (block $s_end (loop $s_loop
        (br_if $s_end (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        ;; one value, in lane 0: the other lanes must add nothing to the row's sums
        (local.set $ge (v128.and (f32x4.mul (f32x4.splat (f32.load (i32.add (local.get $g) (local.get $a)))) (local.get $ve)) (v128.const i32x4 -1 0 0 0)))
        (local.set $yg (f32x4.mul (f32x4.splat (f32.load (i32.add (local.get $num) (local.get $a)))) (local.get $vinv)))
        (local.set $l (f32x4.splat (f32.load (i32.add (local.get $yl) (local.get $a)))))
        (f32.store (i32.add (local.get $dnum) (local.get $a)) (f32x4.extract_lane 0 (f32x4.mul (f32x4.mul (local.get $ge) (local.get $vc)) (local.get $vinv))))
        (f32.store (i32.add (local.get $dyl) (local.get $a)) (f32x4.extract_lane 0 (f32x4.mul (local.get $ge) (local.get $vb))))
        (f32.store (i32.add (local.get $dh) (local.get $a)) (f32x4.extract_lane 0 (f32x4.neg (local.get $ge))))
        (local.set $aq (f32x4.sub (local.get $aq) (f32x4.mul (f32x4.mul (f32x4.mul (local.get $ge) (local.get $vc)) (local.get $yg)) (local.get $vinv))))
        (local.set $ag (f32x4.add (local.get $ag) (f32x4.mul (local.get $ge) (f32x4.sub (local.get $l) (local.get $yg)))))
        (local.set $al (f32x4.add (local.get $al) (f32x4.mul (local.get $ge)
          (f32x4.sub (f32x4.add (f32x4.mul (local.get $vc) (local.get $yg)) (f32x4.mul (local.get $vb) (local.get $l)))
            (f32x4.splat (f32.load (i32.add (local.get $h) (local.get $a))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $s_loop)))
      (f32.store (i32.add (local.get $dqk) (local.get $ra)) (call $hsum (local.get $aq)))
      (f32.store (i32.add (local.get $pg) (local.get $ra))
        (f32.mul (call $hsum (local.get $ag)) (f32.mul (local.get $beta) (f32.sub (f32.const 1) (local.get $beta)))))
      (f32.store (i32.add (local.get $pl) (local.get $ra)) (call $hsum (local.get $al)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $r_loop)))))
