;; The sum of squares of n float32 values (a flat gradient's squared norm, for clipping), into out:
;; sixteen running sums (four v128), then one value at a time, then the sixteen added. Written by
;; hand: tfjs's wasm Sum is a scalar loop (0.15 ms over 297,089 values, with a Square before it).
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "sumsq") (param $x i32) (param $n i32) (param $out i32)
    (local $i i32) (local $n16 i32) (local $p i32) (local $v v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $t f32)
    (local.set $n16 (i32.and (local.get $n) (i32.const -16)))
    (local.set $p (local.get $x))
    (block $v_end (loop $v_loop
      (br_if $v_end (i32.ge_u (local.get $i) (local.get $n16)))
      (local.set $v (v128.load (local.get $p)))
      (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (v128.load offset=16 (local.get $p)))
      (local.set $s1 (f32x4.add (local.get $s1) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (v128.load offset=32 (local.get $p)))
      (local.set $s2 (f32x4.add (local.get $s2) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (v128.load offset=48 (local.get $p)))
      (local.set $s3 (f32x4.add (local.get $s3) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br $v_loop)))
    (block $s_end (loop $s_loop
      (br_if $s_end (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $t (f32.add (local.get $t) (f32.mul (f32.load (local.get $p)) (f32.load (local.get $p)))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $s_loop)))
    (local.set $v (f32x4.add (f32x4.add (local.get $s0) (local.get $s1)) (f32x4.add (local.get $s2) (local.get $s3))))
    (f32.store (local.get $out)
      (f32.add (local.get $t)
        (f32.add
          (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
          (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v))))))))
