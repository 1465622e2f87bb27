;; A ReLU layer's gradient from its output: g = dy where y > 0, else 0, over n float32 values (a
;; compare and an and, four lanes at a time, then one value at a time). Written by hand: tfjs runs
;; it as three kernels (Step, Cast and Multiply), each a pass over the layer's values.
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "relu_grad") (param $dy i32) (param $y i32) (param $g i32) (param $n i32)
    (local $i i32) (local $n4 i32) (local $o i32)
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (block $v_end (loop $v_loop
      (br_if $v_end (i32.ge_u (local.get $i) (local.get $n4)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (v128.store (i32.add (local.get $g) (local.get $o))
        (v128.and (v128.load (i32.add (local.get $dy) (local.get $o)))
          (f32x4.gt (v128.load (i32.add (local.get $y) (local.get $o))) (v128.const i32x4 0 0 0 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $v_loop)))
    (block $s_end (loop $s_loop
      (br_if $s_end (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (f32.store (i32.add (local.get $g) (local.get $o))
        (select (f32.load (i32.add (local.get $dy) (local.get $o))) (f32.const 0)
          (f32.gt (f32.load (i32.add (local.get $y) (local.get $o))) (f32.const 0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $s_loop)))))
