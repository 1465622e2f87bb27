;; GELU (exact erf form, PyTorch's nn.GELU()) and its slope in WebAssembly SIMD, on the wasm
;; backend's heap: y = x Phi(x) and d = Phi(x) + x phi(x), so that the gradient is dy d. As the
;; cpu and webgpu kernels (main/ops/gelu.ts): erf by Abramowitz-Stegun 7.1.26 (|error| <= 1.5e-7), whose exponential is
;; the one phi needs, E = exp(-x^2 / 2); for q = poly(t) t E / 2 with t = 1 / (1 + p |x| / sqrt 2),
;; Phi = 1 - q for x >= 0 and q below. tfjs's wasm Exp and Erf are scalar libm loops, so exp is
;; ours: 2^n e^r with n = round(z log2 e), e^r by a degree-6 polynomial in r = z - n ln 2
;; (Cody-Waite), 2^n built in the exponent bits; z >= -87 keeps 2^n normal (E < 2e-38 there: Phi is
;; 0 or 1).
;; Written by hand: tfjs has no GELU kernel, and the composed ops were ~11 kernels each way.
;; memory: the wasm backend's (a plain or a shared one: two binaries)
(module
  (import "env" "memory" (memory 0))
  ;; y[i] = x[i] Phi(x[i]) and d[i] = Phi(x[i]) + x[i] E / sqrt(2 pi), i < n. Four lanes at a time;
  ;; the last n mod 4 values one at a time in lane 0. The slope is written in the same pass because
  ;; Phi and E are most of the work (~2 ns a value, ~11 SIMD operations): a backward pass that
  ;; recomputed them cost as much again, and dy d is one multiply.
  (func (export "gelu") (param $x i32) (param $y i32) (param $d i32) (param $n i32)
    (local $i i32) (local $n4 i32) (local $o i32) (local $lanes i32)
    (local $v v128) (local $g v128) (local $c v128) (local $res v128)
    (local $z v128) (local $k v128) (local $nn v128) (local $r v128) (local $e v128) (local $t v128) (local $q v128) (local $p v128)
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (block $end (loop $loop
      (br_if $end (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (local.set $lanes (i32.lt_u (local.get $i) (local.get $n4)))
      (local.set $v
        (if (result v128) (local.get $lanes)
          (then (v128.load (i32.add (local.get $x) (local.get $o))))
          (else (f32x4.splat (f32.load (i32.add (local.get $x) (local.get $o)))))))
      ;; z = max(-x^2 / 2, -87) (pmax: maxps, with no NaN or -0 handling to emit)
      (local.set $z (f32x4.pmax (f32x4.mul (f32x4.mul (local.get $v) (local.get $v)) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5))
      (v128.const f32x4 -87 -87 -87 -87)))
      ;; n = round(z log2 e) by adding 1.5 2^23 (the sum's low mantissa bits are n, rounded to even)
      (local.set $k (f32x4.add (f32x4.mul (local.get $z) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504))
      (v128.const f32x4 12582912 12582912 12582912 12582912)))
      (local.set $nn (f32x4.sub (local.get $k) (v128.const f32x4 12582912 12582912 12582912 12582912)))
      ;; r = z - n ln2, ln2 in two parts so that n ln2_hi is exact
      (local.set $r (f32x4.sub (f32x4.sub (local.get $z) (f32x4.mul (local.get $nn) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
      (f32x4.mul (local.get $nn) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
      ;; exp(r) on |r| <= ln2 / 2: 1 + r + r^2 (1/2 + r (1/6 + r (1/24 + r (1/120 + r / 720))))
      (local.set $p (f32x4.add (f32x4.mul (local.get $r) (v128.const f32x4 1.38888889e-3 1.38888889e-3 1.38888889e-3 1.38888889e-3))
      (v128.const f32x4 8.33333333e-3 8.33333333e-3 8.33333333e-3 8.33333333e-3)))
      (local.set $p (f32x4.add (f32x4.mul (local.get $p) (local.get $r)) (v128.const f32x4 4.16666667e-2 4.16666667e-2 4.16666667e-2 4.16666667e-2)))
      (local.set $p (f32x4.add (f32x4.mul (local.get $p) (local.get $r)) (v128.const f32x4 0.166666667 0.166666667 0.166666667 0.166666667)))
      (local.set $p (f32x4.add (f32x4.mul (local.get $p) (local.get $r)) (v128.const f32x4 0.5 0.5 0.5 0.5)))
      (local.set $p (f32x4.add (f32x4.mul (f32x4.mul (local.get $p) (local.get $r)) (local.get $r))
      (f32x4.add (local.get $r) (v128.const f32x4 1 1 1 1))))
      ;; E = p 2^n: 2^n's bits are (n + 127) << 23, n the low bits of k's (k's exponent and the
      ;; 1.5 2^23 are taken off as the integer 0x4B400000 - 127)
      (local.set $e (f32x4.mul (local.get $p)
      (i32x4.shl (i32x4.sub (local.get $k) (v128.const i32x4 0x4B3FFF81 0x4B3FFF81 0x4B3FFF81 0x4B3FFF81)) (i32.const 23))))
      ;; t = 1 / (1 + p |x| / sqrt 2)
      (local.set $t (f32x4.div (v128.const f32x4 1 1 1 1)
      (f32x4.add (f32x4.mul (f32x4.abs (local.get $v)) (v128.const f32x4 0.231641888 0.231641888 0.231641888 0.231641888))
        (v128.const f32x4 1 1 1 1))))
      ;; q = (a1 + t (a2 + t (a3 + t (a4 + t a5)))) t E / 2, the halves in the coefficients
      (local.set $q (f32x4.add (f32x4.mul (local.get $t) (v128.const f32x4 0.5307027145 0.5307027145 0.5307027145 0.5307027145))
      (v128.const f32x4 -0.7265760135 -0.7265760135 -0.7265760135 -0.7265760135)))
      (local.set $q (f32x4.add (f32x4.mul (local.get $q) (local.get $t)) (v128.const f32x4 0.7107068705 0.7107068705 0.7107068705 0.7107068705)))
      (local.set $q (f32x4.add (f32x4.mul (local.get $q) (local.get $t)) (v128.const f32x4 -0.142248368 -0.142248368 -0.142248368 -0.142248368)))
      (local.set $q (f32x4.add (f32x4.mul (local.get $q) (local.get $t)) (v128.const f32x4 0.127414796 0.127414796 0.127414796 0.127414796)))
      (local.set $q (f32x4.mul (f32x4.mul (local.get $q) (local.get $t)) (local.get $e)))
      ;; Phi = x >= 0 ? 1 - q : q
      (local.set $c (v128.bitselect (f32x4.sub (v128.const f32x4 1 1 1 1) (local.get $q)) (local.get $q)
        (f32x4.ge (local.get $v) (v128.const f32x4 0 0 0 0))))
      (local.set $res (f32x4.mul (local.get $v) (local.get $c)))
      (local.set $g (f32x4.add (local.get $c) (f32x4.mul (f32x4.mul (local.get $v) (local.get $e)) (v128.const f32x4 0.398942280 0.398942280 0.398942280 0.398942280))))
      (if (local.get $lanes)
        (then
          (v128.store (i32.add (local.get $y) (local.get $o)) (local.get $res))
          (v128.store (i32.add (local.get $d) (local.get $o)) (local.get $g))
          (local.set $i (i32.add (local.get $i) (i32.const 4))))
        (else
          (f32.store (i32.add (local.get $y) (local.get $o)) (f32x4.extract_lane 0 (local.get $res)))
          (f32.store (i32.add (local.get $d) (local.get $o)) (f32x4.extract_lane 0 (local.get $g)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))))
      (br $loop)))))
