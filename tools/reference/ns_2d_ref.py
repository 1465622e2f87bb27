#!/usr/bin/python3
"""FNO's Navier-Stokes time stepper (data_generation/navier_stokes/ns_2d.py, navier_stokes_2d) re-written
for one field, to check the workbench's generator against it. Same scheme as ns_2d.py:
  * vorticity form on the periodic unit square, full complex 2-D FFTs;
  * k_x along the first array axis, k_y along the second; negative Laplacian 4 pi^2 |k|^2 with its
    (0, 0) entry set to 1; 2/3 dealiasing mask |k_x|, |k_y| <= 2/3 k_max on the nonlinear term;
  * velocity q = psi_y, v = -psi_x from psi_h = w_h / lap; nonlinear term q w_x + v w_y in physical space;
  * forcing 0.1 (sin(2 pi (x + y)) + cos(2 pi (x + y))) on x = linspace(0, 1, s + 1)[:-1] (first axis);
  * forward Euler on the nonlinear term and forcing, Crank-Nicolson on viscosity (nu = 1e-3):
    w_h <- (-dt F_h + dt f_h + (1 - dt nu lap / 2) w_h) / (1 + dt nu lap / 2), ceil(T / dt) steps.
Backends: torch (torch.fft, float64, as ns_2d.py runs) or numpy (numpy.fft).

Usage: /usr/bin/python3 tools/reference/ns_2d_ref.py [--backend numpy|torch] --s S --T T --dt DT IN.f64 OUT.f64
IN/OUT: raw little-endian float64 s x s vorticity, row-major, first axis = x.
"""
import argparse
import math

import numpy as np


def step_all(w0, T, dt, nu=1e-3, amplitude=0.1, backend="numpy"):
    s = w0.shape[0]
    if backend == "torch":
        import torch
        xp, fft2, ifft2 = torch, torch.fft.fft2, torch.fft.ifft2
        arr = lambda a: torch.as_tensor(a, dtype=torch.float64)
    else:
        xp, fft2, ifft2 = np, np.fft.fft2, np.fft.ifft2
        arr = lambda a: np.asarray(a, dtype=np.float64)
    k_max = s // 2
    k = np.concatenate([np.arange(0, k_max), np.arange(-k_max, 0)]).astype(np.float64)
    k_y = arr(np.tile(k[None, :], (s, 1)))      # varies along the second axis
    k_x = arr(np.tile(k[:, None], (1, s)))      # varies along the first axis
    lap = 4 * math.pi ** 2 * (k_x ** 2 + k_y ** 2)
    lap[0, 0] = 1.0
    dealias = arr(((np.abs(k)[:, None] <= 2 / 3 * k_max) & (np.abs(k)[None, :] <= 2 / 3 * k_max)).astype(np.float64))
    x = np.linspace(0, 1, s + 1)[:-1]
    X, Y = np.meshgrid(x, x, indexing="ij")
    f_h = fft2(arr(amplitude * (np.sin(2 * math.pi * (X + Y)) + np.cos(2 * math.pi * (X + Y)))))
    w_h = fft2(arr(w0))
    for _ in range(math.ceil(T / dt - 1e-9)):
        psi_h = w_h / lap
        q = ifft2(2 * math.pi * k_y * 1j * psi_h).real
        v = ifft2(-2 * math.pi * k_x * 1j * psi_h).real
        w_x = ifft2(2 * math.pi * k_x * 1j * w_h).real
        w_y = ifft2(2 * math.pi * k_y * 1j * w_h).real
        F_h = dealias * fft2(q * w_x + v * w_y)
        c = 0.5 * dt * nu * lap
        w_h = (-dt * F_h + dt * f_h + (1.0 - c) * w_h) / (1.0 + c)
    w = ifft2(w_h).real
    return w.numpy() if backend == "torch" else w


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="numpy", choices=["numpy", "torch"])
    ap.add_argument("--s", type=int, required=True)
    ap.add_argument("--T", type=float, required=True)
    ap.add_argument("--dt", type=float, default=1e-4)
    ap.add_argument("inp")
    ap.add_argument("out")
    a = ap.parse_args()
    w0 = np.fromfile(a.inp, dtype="<f8").reshape(a.s, a.s)
    step_all(w0, a.T, a.dt, backend=a.backend).astype("<f8").tofile(a.out)


if __name__ == "__main__":
    main()
