;; One AdamW step over a parameter's values in place, in float32 and in PyTorch's order
;; (torch.optim.AdamW, single-tensor path), on the gradient times `scale` (the clip coefficient,
;; torch.nn.utils.clip_grad_norm_'s g.mul_(coef) in float32; 1 when nothing is clipped):
;;   g *= scale;  p *= decay;  m = m b1 + g (1 - b1);  v = v b2 + g g (1 - b2);
;;   p += (-stepSize m) / (sqrt(v) / sbc2 + eps)
;; with decay = 1 - lr wd, stepSize = lr / (1 - b1^t), sbc2 = sqrt(1 - b2^t). Four values at a time
;; (WebAssembly SIMD), then one at a time. Written by hand: it runs on arrays the trainer keeps in
;; a memory of their own (main/train/adamw-host.ts, the plain binary), where a JS loop took ~3.7 ns
;; a value, and on flat tensors on the wasm backend's heap (ops/adamw-heap.ts).
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  (func (export "adamw")
    (param $p i32) (param $g i32) (param $m i32) (param $v i32) (param $n i32)
    (param $decay f32) (param $b1 f32) (param $c1 f32) (param $b2 f32) (param $c2 f32)
    (param $stepSize f32) (param $sbc2 f32) (param $eps f32) (param $scale f32)
    (local $i i32) (local $n4 i32) (local $o i32)
    (local $vp v128) (local $vg v128) (local $vm v128) (local $vv v128)
    (local $vdecay v128) (local $vb1 v128) (local $vc1 v128) (local $vb2 v128) (local $vc2 v128)
    (local $vstep v128) (local $vsbc2 v128) (local $veps v128) (local $vscale v128)
    (local $fp f32) (local $fg f32) (local $fm f32) (local $fv f32)
    (local.set $vdecay (f32x4.splat (local.get $decay)))
    (local.set $vb1 (f32x4.splat (local.get $b1)))
    (local.set $vc1 (f32x4.splat (local.get $c1)))
    (local.set $vb2 (f32x4.splat (local.get $b2)))
    (local.set $vc2 (f32x4.splat (local.get $c2)))
    (local.set $vstep (f32x4.splat (f32.neg (local.get $stepSize))))
    (local.set $vsbc2 (f32x4.splat (local.get $sbc2)))
    (local.set $veps (f32x4.splat (local.get $eps)))
    (local.set $vscale (f32x4.splat (local.get $scale)))
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (local.set $i (i32.const 0))
    (block $v_end (loop $v_loop
      (br_if $v_end (i32.ge_u (local.get $i) (local.get $n4)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (local.set $vg (f32x4.mul (v128.load (i32.add (local.get $g) (local.get $o))) (local.get $vscale)))
      (local.set $vp (f32x4.mul (v128.load (i32.add (local.get $p) (local.get $o))) (local.get $vdecay)))
      (local.set $vm (f32x4.add
        (f32x4.mul (v128.load (i32.add (local.get $m) (local.get $o))) (local.get $vb1))
        (f32x4.mul (local.get $vg) (local.get $vc1))))
      (local.set $vv (f32x4.add
        (f32x4.mul (v128.load (i32.add (local.get $v) (local.get $o))) (local.get $vb2))
        (f32x4.mul (f32x4.mul (local.get $vg) (local.get $vg)) (local.get $vc2))))
      (v128.store (i32.add (local.get $m) (local.get $o)) (local.get $vm))
      (v128.store (i32.add (local.get $v) (local.get $o)) (local.get $vv))
      (v128.store (i32.add (local.get $p) (local.get $o))
        (f32x4.add (local.get $vp)
          (f32x4.div (f32x4.mul (local.get $vstep) (local.get $vm))
            (f32x4.add (f32x4.div (f32x4.sqrt (local.get $vv)) (local.get $vsbc2)) (local.get $veps)))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $v_loop)))
    (block $s_end (loop $s_loop
      (br_if $s_end (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (local.set $fg (f32.mul (f32.load (i32.add (local.get $g) (local.get $o))) (local.get $scale)))
      (local.set $fp (f32.mul (f32.load (i32.add (local.get $p) (local.get $o))) (local.get $decay)))
      (local.set $fm (f32.add
        (f32.mul (f32.load (i32.add (local.get $m) (local.get $o))) (local.get $b1))
        (f32.mul (local.get $fg) (local.get $c1))))
      (local.set $fv (f32.add
        (f32.mul (f32.load (i32.add (local.get $v) (local.get $o))) (local.get $b2))
        (f32.mul (f32.mul (local.get $fg) (local.get $fg)) (local.get $c2))))
      (f32.store (i32.add (local.get $m) (local.get $o)) (local.get $fm))
      (f32.store (i32.add (local.get $v) (local.get $o)) (local.get $fv))
      (f32.store (i32.add (local.get $p) (local.get $o))
        (f32.add (local.get $fp)
          (f32.div (f32.mul (f32.neg (local.get $stepSize)) (local.get $fm))
            (f32.add (f32.div (f32.sqrt (local.get $fv)) (local.get $sbc2)) (local.get $eps)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $s_loop)))))
