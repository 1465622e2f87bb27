#!/usr/bin/python3
"""Straightforward numpy/scipy implementations of the LiNO Workbench generators' solvers.

Used by bench/data-generate.bench.ts: the TypeScript bench writes the random inputs it drew (so both
sides solve the same problem), this script times only the solver work (not interpreter start-up or
imports) and writes its outputs back for an agreement check. Never a runtime dependency.

Usage: /usr/bin/python3 tools/reference/generators_ref.py JOB.json
JOB = {"case": "darcy"|"burgers"|"navier-stokes", "dir": DIR, ...}; inputs/outputs are raw
little-endian float64 files in DIR; timings (wall seconds of the solver work, and process CPU
seconds, which a shared machine disturbs less) go to DIR/result.json.
"""
import json
import math
import os
import sys
import time

import numpy as np
import scipy.fft
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.interpolate import CubicSpline


# ------------------------------------------------------------------ Darcy (FNO GRF.m + solve_gwf.m)
def darcy_grf(xi, alpha=2.0, tau=3.0):
    s = xi.shape[0]
    k = np.arange(s)
    k1, k2 = np.meshgrid(k, k, indexing="ij")
    coef = tau ** (alpha - 1) * (np.pi ** 2 * (k1 ** 2 + k2 ** 2) + tau ** 2) ** (-alpha / 2)
    L = s * coef * xi
    L[0, 0] = 0
    return scipy.fft.idctn(L, norm="ortho")  # MATLAB idct2


def spline2(src, xs, xd):
    tmp = CubicSpline(xs, src, axis=1, bc_type="not-a-knot", extrapolate=True)(xd)
    return CubicSpline(xs, tmp, axis=0, bc_type="not-a-knot", extrapolate=True)(xd)


def solve_gwf(a):
    K = a.shape[0]
    xc = (2 * np.arange(K) + 1) / (2 * K)
    xn = np.linspace(0, 1, K)
    c = spline2(a, xc, xn)  # unclamped, as solve_gwf.m and the TypeScript solver
    m = K - 2
    C = c[1:-1, 1:-1]
    N = (C + c[:-2, 1:-1]) / 2
    S = (C + c[2:, 1:-1]) / 2
    W = (C + c[1:-1, :-2]) / 2
    E = (C + c[1:-1, 2:]) / 2
    diag = (N + S + W + E).ravel()
    east = -E.copy()
    east[:, -1] = 0
    south = -S[:-1, :].ravel()
    A = sp.diags([diag, east.ravel()[:-1], east.ravel()[:-1], south, south], [0, 1, -1, m, -m], format="csc")
    A = A * (K - 1) ** 2
    u = spla.spsolve(A, np.ones(m * m))
    P = np.zeros((K, K))
    P[1:-1, 1:-1] = u.reshape(m, m)
    return spline2(P, xn, xc)


def run_darcy(job, d):
    s, n = job["s"], job["samples"]
    xi = np.fromfile(os.path.join(d, "xi.f64"), dtype="<f8").reshape(n, s, s)
    out = np.empty((n, s, s))
    t0 = time.perf_counter()
    for i in range(n):
        g = darcy_grf(xi[i])
        a = np.where(g >= 0, 12.0, 3.0)
        out[i] = solve_gwf(a)
    t = time.perf_counter() - t0
    out.astype("<f8").tofile(os.path.join(d, "out.f64"))
    return t


# ------------------------------------------------------------------ Burgers (IF-RK4, 2/3 dealiasing)
def burgers(u0, nu, T, cfl):
    n = u0.size
    umax = np.abs(u0).max()
    steps = max(1, math.ceil(T / ((cfl / n) / umax)))
    dt = T / steps
    k = np.fft.rfftfreq(n, 1.0 / n)
    kk = 2 * np.pi * k
    E = np.exp(-nu * kk ** 2 * dt / 2)
    E2 = E * E
    g = np.where(k < n / 3, -0.5j * kk, 0)
    g[k * 2 == n] = 0

    def N(v):
        return g * np.fft.rfft(np.fft.irfft(v, n) ** 2)

    v = np.fft.rfft(u0)
    for _ in range(steps):
        a = N(v)
        b = N(E * (v + dt / 2 * a))
        c = N(E * v + dt / 2 * b)
        d_ = N(E2 * v + dt * E * c)
        v = E2 * v + dt / 6 * (E2 * a + 2 * E * (b + c) + d_)
    return np.fft.irfft(v, n), steps


def run_burgers(job, d):
    u0 = np.fromfile(os.path.join(d, "u0.f64"), dtype="<f8")
    t0 = time.perf_counter()
    uT, steps = burgers(u0, job["nu"], job["T"], job["cfl"])
    t = time.perf_counter() - t0
    uT.astype("<f8").tofile(os.path.join(d, "out.f64"))
    return t


# ------------------------------------------------------------------ Navier-Stokes (ns_2d.py; CN with Euler or AB2)
def navier_stokes(w0, nu, frames, forcing, scheme, dt_fixed, cfl):
    s = w0.shape[0]
    kmax = s // 2
    k = np.concatenate([np.arange(0, kmax), np.arange(-kmax, 0)])
    kx = np.repeat(k[:, None], s // 2 + 1, axis=1).astype(float)
    ky = np.repeat(np.arange(0, s // 2 + 1)[None, :], s, axis=0).astype(float)
    lap = 4 * np.pi ** 2 * (kx ** 2 + ky ** 2)
    lap[0, 0] = 1.0
    dx = np.where(2 * kx == -s, 0, 2 * np.pi * kx)
    dy = np.where(2 * ky == s, 0, 2 * np.pi * ky)
    mask = ((np.abs(kx) <= 2 / 3 * kmax) & (np.abs(ky) <= 2 / 3 * kmax)).astype(float)
    x = np.arange(s) / s
    X, Y = np.meshgrid(x, x, indexing="ij")
    f_h = np.fft.rfft2(forcing * (np.sin(2 * np.pi * (X + Y)) + np.cos(2 * np.pi * (X + Y))))
    w_h = np.fft.rfft2(w0)
    kd = 2 * np.pi * (2 / 3) * kmax

    def rhs(w_h):
        psi = w_h / lap
        q = np.fft.irfft2(1j * dy * psi, (s, s))
        v = np.fft.irfft2(-1j * dx * psi, (s, s))
        wx = np.fft.irfft2(1j * dx * w_h, (s, s))
        wy = np.fft.irfft2(1j * dy * w_h, (s, s))
        umax = math.sqrt(float((q * q + v * v).max()))
        return mask * np.fft.rfft2(q * wx + v * wy) - f_h, umax

    out = []
    prev_dt = 0.0
    F_old = None
    steps = 0
    for _ in range(frames):
        if scheme == "euler" or dt_fixed:
            m = max(1, round(1.0 / dt_fixed))
        else:
            _, u = rhs(w_h)
            u = max(u, 1e-12)
            bound = min(1 / (s * u), ((8 * nu * kd * kd) / (kd * u) ** 4) ** (1 / 3))
            m = max(1, math.ceil(1.0 / (cfl * bound)))
        dt = 1.0 / m
        for _ in range(m):
            F, _ = rhs(w_h)
            if scheme == "ab2":
                if prev_dt > 0:
                    r = dt / prev_dt
                    F, F_old = (1 + r / 2) * F - (r / 2) * F_old, F
                else:
                    F_old = F
            prev_dt = dt
            c = 0.5 * dt * nu * lap
            w_h = (-dt * F + (1 - c) * w_h) / (1 + c)
            steps += 1
        out.append(np.fft.irfft2(w_h, (s, s)))
    return np.stack(out, axis=-1), steps


def run_ns(job, d):
    s = job["s"]
    w0 = np.fromfile(os.path.join(d, "w0.f64"), dtype="<f8").reshape(s, s)
    t0 = time.perf_counter()
    u, steps = navier_stokes(w0, job["nu"], job["frames"], job["forcing"], job["scheme"], job.get("dt"), job["cfl"])
    t = time.perf_counter() - t0
    u.astype("<f8").tofile(os.path.join(d, "out.f64"))
    return t


if __name__ == "__main__":
    job = json.load(open(sys.argv[1]))
    d = job["dir"]
    fn = {"darcy": run_darcy, "burgers": run_burgers, "navier-stokes": run_ns}[job["case"]]
    c0 = time.process_time()
    seconds = fn(job, d)
    cpu = time.process_time() - c0  # includes the small file reads/writes around the timed work
    json.dump({"seconds": seconds, "cpu": cpu, "numpy": np.__version__}, open(os.path.join(d, "result.json"), "w"))
