;; The kernel gradient of a depthwise convolution (stride 1, zero padding (kh-1)/2 and (kw-1)/2,
;; channels last) in WebAssembly SIMD, on the wasm backend's heap; the same kernel as
;; main/ops/depthwise-conv.ts's cpu one, in float32:
;;   dF[i, j, c] = sum over b, h, w of x[b, h+i-ph, w+j-pw, c] dy[b, h, w, c]   (zero outside)
;; One tap (i, j) at a time over the points where it falls inside the grid, four channels at a time
;; into dF's row (in cache), the last C mod 4 one at a time. Written by hand: wasm has no such
;; kernel, and the composed correlation (a depthwise conv with dy as an H x W filter) took 1.4 ms
;; at [4, 32, 32, 32].
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "filterGrad") (param $x i32) (param $dy i32) (param $df i32)
    (param $B i32) (param $H i32) (param $W i32) (param $C i32) (param $kh i32) (param $kw i32)
    (local $i i32) (local $j i32) (local $b i32) (local $h i32) (local $w i32) (local $c i32) (local $c4 i32)
    (local $h0 i32) (local $h1 i32) (local $w0 i32) (local $w1 i32) (local $di i32) (local $dj i32)
    (local $row i32) (local $px i32) (local $pd i32) (local $cb i32)
    (local.set $c4 (i32.and (local.get $C) (i32.const -4)))
    (local.set $cb (i32.shl (local.get $C) (i32.const 2)))
    (memory.fill (local.get $df) (i32.const 0) (i32.mul (i32.mul (local.get $kh) (local.get $kw)) (local.get $cb)))
    (block $i_end (loop $i_loop
      (br_if $i_end (i32.ge_u (local.get $i) (local.get $kh)))
      (local.set $di (i32.sub (local.get $i) (i32.shr_u (i32.sub (local.get $kh) (i32.const 1)) (i32.const 1))))
      ;; the rows h where h + di is inside [0, H)
      (local.set $h0 (select (i32.sub (i32.const 0) (local.get $di)) (i32.const 0) (i32.lt_s (local.get $di) (i32.const 0))))
      (local.set $h1 (select (i32.sub (local.get $H) (local.get $di)) (local.get $H) (i32.gt_s (local.get $di) (i32.const 0))))
      (local.set $j (i32.const 0))
      (block $j_end (loop $j_loop
        (br_if $j_end (i32.ge_u (local.get $j) (local.get $kw)))
        (local.set $dj (i32.sub (local.get $j) (i32.shr_u (i32.sub (local.get $kw) (i32.const 1)) (i32.const 1))))
        (local.set $w0 (select (i32.sub (i32.const 0) (local.get $dj)) (i32.const 0) (i32.lt_s (local.get $dj) (i32.const 0))))
        (local.set $w1 (select (i32.sub (local.get $W) (local.get $dj)) (local.get $W) (i32.gt_s (local.get $dj) (i32.const 0))))
        (local.set $row (i32.add (local.get $df) (i32.mul (i32.add (i32.mul (local.get $i) (local.get $kw)) (local.get $j)) (local.get $cb))))
        (local.set $b (i32.const 0))
        (block $b_end (loop $b_loop
          (br_if $b_end (i32.ge_u (local.get $b) (local.get $B)))
          (local.set $h (local.get $h0))
          (block $h_end (loop $h_loop
            (br_if $h_end (i32.ge_s (local.get $h) (local.get $h1)))
            (local.set $w (local.get $w0))
            (block $w_end (loop $w_loop
              (br_if $w_end (i32.ge_s (local.get $w) (local.get $w1)))
              ;; dy at (b, h, w), x at (b, h + di, w + dj)
              (local.set $pd (i32.add (local.get $dy)
                (i32.mul (i32.add (i32.mul (i32.add (i32.mul (local.get $b) (local.get $H)) (local.get $h)) (local.get $W)) (local.get $w)) (local.get $cb))))
              (local.set $px (i32.add (local.get $x)
                (i32.mul (i32.add (i32.mul (i32.add (i32.mul (local.get $b) (local.get $H)) (i32.add (local.get $h) (local.get $di))) (local.get $W))
                  (i32.add (local.get $w) (local.get $dj))) (local.get $cb))))
              (local.set $c (i32.const 0))
              (block $c_end (loop $c_loop
                (br_if $c_end (i32.ge_u (local.get $c) (local.get $c4)))
                (v128.store (i32.add (local.get $row) (i32.shl (local.get $c) (i32.const 2)))
                  (f32x4.add (v128.load (i32.add (local.get $row) (i32.shl (local.get $c) (i32.const 2))))
                    (f32x4.mul (v128.load (i32.add (local.get $px) (i32.shl (local.get $c) (i32.const 2))))
                      (v128.load (i32.add (local.get $pd) (i32.shl (local.get $c) (i32.const 2)))))))
                (local.set $c (i32.add (local.get $c) (i32.const 4)))
                (br $c_loop)))
              (block $t_end (loop $t_loop
                (br_if $t_end (i32.ge_u (local.get $c) (local.get $C)))
                (f32.store (i32.add (local.get $row) (i32.shl (local.get $c) (i32.const 2)))
                  (f32.add (f32.load (i32.add (local.get $row) (i32.shl (local.get $c) (i32.const 2))))
                    (f32.mul (f32.load (i32.add (local.get $px) (i32.shl (local.get $c) (i32.const 2))))
                      (f32.load (i32.add (local.get $pd) (i32.shl (local.get $c) (i32.const 2)))))))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))
                (br $t_loop)))
              (local.set $w (i32.add (local.get $w) (i32.const 1)))
              (br $w_loop)))
            (local.set $h (i32.add (local.get $h) (i32.const 1)))
            (br $h_loop)))
          (local.set $b (i32.add (local.get $b) (i32.const 1)))
          (br $b_loop)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $j_loop)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $i_loop)))))
