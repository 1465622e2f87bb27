;; LayerNorm over rows of M values (nn.LayerNorm: biased variance, eps 1e-5) and its gradient in
;; WebAssembly SIMD, on the wasm backend's heap; the same kernels as main/ops/layer-norm.ts's cpu
;; ones (outputs y and per-row stats [mean, rstd]; dx, dw, db), in float32. Four values of a row at
;; a time, the last M mod 4 one at a time. Written by hand: tfjs has no LayerNorm kernel, and the
;; composed ops were 24 kernels forward and backward (1.7 ms at [4096, 32]).
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))

  (func $hsum (param $v v128) (result f32)
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
      (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v)))))

  ;; y[r, j] = (x[r, j] - mean_r) rstd_r w[j] + b[j]; stats[r] = [mean_r, rstd_r]
  (func (export "forward") (param $x i32) (param $w i32) (param $b i32) (param $y i32) (param $stats i32) (param $R i32) (param $M i32)
    (local $r i32) (local $j i32) (local $m4 i32) (local $row i32) (local $rb i32) (local $a i32)
    (local $acc v128) (local $d v128) (local $vmean v128) (local $vrstd v128)
    (local $s f32) (local $mean f32) (local $rstd f32) (local $f f32)
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    (local.set $rb (i32.shl (local.get $M) (i32.const 2)))
    (block $r_end (loop $r_loop
      (br_if $r_end (i32.ge_u (local.get $r) (local.get $R)))
      (local.set $row (i32.mul (local.get $r) (local.get $rb)))
      ;; mean
      (local.set $acc (v128.const i32x4 0 0 0 0))
      (local.set $s (f32.const 0))
      (local.set $j (i32.const 0))
      (block $e1 (loop $l1
        (br_if $e1 (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $acc (f32x4.add (local.get $acc) (v128.load (i32.add (local.get $x) (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l1)))
      (block $e2 (loop $l2
        (br_if $e2 (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $s (f32.add (local.get $s) (f32.load (i32.add (local.get $x) (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l2)))
      (local.set $mean (f32.div (f32.add (call $hsum (local.get $acc)) (local.get $s)) (f32.convert_i32_u (local.get $M))))
      (local.set $vmean (f32x4.splat (local.get $mean)))
      ;; variance about the mean
      (local.set $acc (v128.const i32x4 0 0 0 0))
      (local.set $s (f32.const 0))
      (local.set $j (i32.const 0))
      (block $e3 (loop $l3
        (br_if $e3 (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $d (f32x4.sub (v128.load (i32.add (local.get $x) (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))) (local.get $vmean)))
        (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $d) (local.get $d))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l3)))
      (block $e4 (loop $l4
        (br_if $e4 (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $f (f32.sub (f32.load (i32.add (local.get $x) (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))) (local.get $mean)))
        (local.set $s (f32.add (local.get $s) (f32.mul (local.get $f) (local.get $f))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l4)))
      (local.set $rstd (f32.div (f32.const 1)
        (f32.sqrt (f32.add (f32.div (f32.add (call $hsum (local.get $acc)) (local.get $s)) (f32.convert_i32_u (local.get $M))) (f32.const 1e-5)))))
      (local.set $vrstd (f32x4.splat (local.get $rstd)))
      ;; y
      (local.set $j (i32.const 0))
      (block $e5 (loop $l5
        (br_if $e5 (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (v128.store (i32.add (local.get $y) (local.get $a))
          (f32x4.add
            (f32x4.mul (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (local.get $a))) (local.get $vmean)) (local.get $vrstd))
              (v128.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2)))))
            (v128.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l5)))
      (block $e6 (loop $l6
        (br_if $e6 (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (f32.store (i32.add (local.get $y) (local.get $a))
          (f32.add
            (f32.mul (f32.mul (f32.sub (f32.load (i32.add (local.get $x) (local.get $a))) (local.get $mean)) (local.get $rstd))
              (f32.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2)))))
            (f32.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l6)))
      (f32.store (i32.add (local.get $stats) (i32.shl (local.get $r) (i32.const 3))) (local.get $mean))
      (f32.store offset=4 (i32.add (local.get $stats) (i32.shl (local.get $r) (i32.const 3))) (local.get $rstd))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $r_loop))))

  ;; With xh = (x - mean) rstd and g = dy w: dx = (g - mean_j g - xh mean_j(g xh)) rstd per row;
  ;; dw[j] = sum_r dy xh, db[j] = sum_r dy (both zeroed first).
  (func (export "backward") (param $dy i32) (param $x i32) (param $w i32) (param $stats i32)
    (param $dx i32) (param $dw i32) (param $db i32) (param $R i32) (param $M i32)
    (local $r i32) (local $j i32) (local $m4 i32) (local $row i32) (local $rb i32) (local $a i32) (local $c i32)
    (local $vd v128) (local $vxh v128) (local $vg v128) (local $amg v128) (local $amgx v128)
    (local $vmean v128) (local $vrstd v128) (local $vmg v128) (local $vmgx v128)
    (local $fd f32) (local $fxh f32) (local $fg f32) (local $mg f32) (local $mgx f32) (local $mean f32) (local $rstd f32)
    (local.set $m4 (i32.and (local.get $M) (i32.const -4)))
    (local.set $rb (i32.shl (local.get $M) (i32.const 2)))
    (block $z_end (loop $z_loop
      (br_if $z_end (i32.ge_u (local.get $j) (local.get $M)))
      (f32.store (i32.add (local.get $dw) (i32.shl (local.get $j) (i32.const 2))) (f32.const 0))
      (f32.store (i32.add (local.get $db) (i32.shl (local.get $j) (i32.const 2))) (f32.const 0))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $z_loop)))
    (block $r_end (loop $r_loop
      (br_if $r_end (i32.ge_u (local.get $r) (local.get $R)))
      (local.set $row (i32.mul (local.get $r) (local.get $rb)))
      (local.set $mean (f32.load (i32.add (local.get $stats) (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $rstd (f32.load offset=4 (i32.add (local.get $stats) (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $vmean (f32x4.splat (local.get $mean)))
      (local.set $vrstd (f32x4.splat (local.get $rstd)))
      ;; the row's sums of g and g xh, and its terms of dw and db
      (local.set $amg (v128.const i32x4 0 0 0 0))
      (local.set $amgx (v128.const i32x4 0 0 0 0))
      (local.set $mg (f32.const 0))
      (local.set $mgx (f32.const 0))
      (local.set $j (i32.const 0))
      (block $e1 (loop $l1
        (br_if $e1 (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $c (i32.shl (local.get $j) (i32.const 2)))
        (local.set $vd (v128.load (i32.add (local.get $dy) (local.get $a))))
        (local.set $vxh (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (local.get $a))) (local.get $vmean)) (local.get $vrstd)))
        (local.set $vg (f32x4.mul (local.get $vd) (v128.load (i32.add (local.get $w) (local.get $c)))))
        (local.set $amg (f32x4.add (local.get $amg) (local.get $vg)))
        (local.set $amgx (f32x4.add (local.get $amgx) (f32x4.mul (local.get $vg) (local.get $vxh))))
        (v128.store (i32.add (local.get $dw) (local.get $c))
          (f32x4.add (v128.load (i32.add (local.get $dw) (local.get $c))) (f32x4.mul (local.get $vd) (local.get $vxh))))
        (v128.store (i32.add (local.get $db) (local.get $c))
          (f32x4.add (v128.load (i32.add (local.get $db) (local.get $c))) (local.get $vd)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l1)))
      (block $e2 (loop $l2
        (br_if $e2 (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $c (i32.shl (local.get $j) (i32.const 2)))
        (local.set $fd (f32.load (i32.add (local.get $dy) (local.get $a))))
        (local.set $fxh (f32.mul (f32.sub (f32.load (i32.add (local.get $x) (local.get $a))) (local.get $mean)) (local.get $rstd)))
        (local.set $fg (f32.mul (local.get $fd) (f32.load (i32.add (local.get $w) (local.get $c)))))
        (local.set $mg (f32.add (local.get $mg) (local.get $fg)))
        (local.set $mgx (f32.add (local.get $mgx) (f32.mul (local.get $fg) (local.get $fxh))))
        (f32.store (i32.add (local.get $dw) (local.get $c))
          (f32.add (f32.load (i32.add (local.get $dw) (local.get $c))) (f32.mul (local.get $fd) (local.get $fxh))))
        (f32.store (i32.add (local.get $db) (local.get $c))
          (f32.add (f32.load (i32.add (local.get $db) (local.get $c))) (local.get $fd)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l2)))
      (local.set $mg (f32.div (f32.add (call $hsum (local.get $amg)) (local.get $mg)) (f32.convert_i32_u (local.get $M))))
      (local.set $mgx (f32.div (f32.add (call $hsum (local.get $amgx)) (local.get $mgx)) (f32.convert_i32_u (local.get $M))))
      (local.set $vmg (f32x4.splat (local.get $mg)))
      (local.set $vmgx (f32x4.splat (local.get $mgx)))
      ;; dx
      (local.set $j (i32.const 0))
      (block $e3 (loop $l3
        (br_if $e3 (i32.ge_u (local.get $j) (local.get $m4)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $vxh (f32x4.mul (f32x4.sub (v128.load (i32.add (local.get $x) (local.get $a))) (local.get $vmean)) (local.get $vrstd)))
        (v128.store (i32.add (local.get $dx) (local.get $a))
          (f32x4.mul
            (f32x4.sub
              (f32x4.sub (f32x4.mul (v128.load (i32.add (local.get $dy) (local.get $a))) (v128.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2)))))
                (local.get $vmg))
              (f32x4.mul (local.get $vxh) (local.get $vmgx)))
            (local.get $vrstd)))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l3)))
      (block $e4 (loop $l4
        (br_if $e4 (i32.ge_u (local.get $j) (local.get $M)))
        (local.set $a (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $fxh (f32.mul (f32.sub (f32.load (i32.add (local.get $x) (local.get $a))) (local.get $mean)) (local.get $rstd)))
        (f32.store (i32.add (local.get $dx) (local.get $a))
          (f32.mul
            (f32.sub
              (f32.sub (f32.mul (f32.load (i32.add (local.get $dy) (local.get $a))) (f32.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2)))))
                (local.get $mg))
              (f32.mul (local.get $fxh) (local.get $mgx)))
            (local.get $rstd)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l4)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $r_loop)))))
