#!/usr/bin/python3
"""numpy reference for main/train/diagnostics/spectrum.ts (test/unit/train/diagnostics/spectrum.test.ts).

Reads a JSON job on stdin: {"n": samples, "grid": [nx] or [nx, ny], "pred": [...], "truth": [...]} with pred and truth
flat, row-major [n, *grid, C] (channels last). Writes JSON on stdout, computed with numpy.fft only:
  fft:      numpy.fft.fftn of truth sample 0, channel 0 (interleaved re, im), to check the FFT itself;
  shells:   per channel and sample, the shell power spectrum of the error and of the truth:
            E(k) = sum over the full FFT plane of |F|^2 / N^2 with k = floor(|kappa|);
  frmse:    per channel, PDEBench's fRMSE per wavenumber and its low/mid/high bands, following
            metric_func in pdebench/models/metrics.py (iLow = 4, iHigh = 12, Lx = Ly = 1): the batch is
            the whole array. Empty bands are None (PDEBench: NaN).
Never a runtime dependency.
"""
import json
import math
import sys

import numpy as np

I_LOW, I_HIGH = 4, 12


def shells(u):
    F = np.fft.fftn(u)
    N = u.size
    k = [np.round(np.fft.fftfreq(n) * n) for n in u.shape]  # integer wavenumbers (fftfreq * n is not exact for odd n)
    K = np.meshgrid(*k, indexing="ij")
    r = np.floor(np.sqrt(sum(q ** 2 for q in K))).astype(int)
    out = np.zeros(r.max() + 1)
    np.add.at(out, r.ravel(), (np.abs(F) ** 2).ravel() / N ** 2)
    return out


def pdebench_frmse(pred, target):
    """pred, target: [nb, *grid] for one channel and time step, as metric_func sees them."""
    nb = pred.shape[0]
    grid = pred.shape[1:]
    if len(grid) == 1:
        nx = grid[0]
        pf = np.fft.rfft(pred, axis=1)
        tf = np.fft.rfft(target, axis=1)
        err = np.sqrt(np.mean(np.abs(pf - tf) ** 2, axis=0)) / nx * 1.0
    else:
        nx, ny = grid
        pf = np.fft.fftn(pred, axes=[1, 2])
        tf = np.fft.fftn(target, axes=[1, 2])
        e2 = np.abs(pf - tf) ** 2
        top = min(nx // 2, ny // 2)
        acc = np.zeros([nb, top])
        for i in range(nx // 2):
            for j in range(ny // 2):
                it = math.floor(math.sqrt(i ** 2 + j ** 2))
                if it > top - 1:
                    continue
                acc[:, it] += e2[:, i, j]
        err = np.sqrt(np.mean(acc, axis=0)) / (nx * ny) * 1.0 * 1.0

    def band(a, b):
        s = err[a:b]
        return float(np.mean(s)) if s.size else None

    return {"perWavenumber": err.tolist(), "bands": {"low": band(0, I_LOW), "mid": band(I_LOW, I_HIGH), "high": band(I_HIGH, None)}}


def main():
    job = json.load(sys.stdin)
    grid = job["grid"]
    pred = np.asarray(job["pred"], dtype=np.float64)
    truth = np.asarray(job["truth"], dtype=np.float64)
    n = job["n"]
    C = truth.size // (n * int(np.prod(grid)))
    pred = pred.reshape([n, *grid, C])
    truth = truth.reshape([n, *grid, C])
    F0 = np.fft.fftn(truth[0, ..., 0])
    out = {
        "fft": np.stack([F0.real.ravel(), F0.imag.ravel()], axis=1).ravel().tolist(),
        "shells": [[{"error": shells(pred[s, ..., c] - truth[s, ..., c]).tolist(), "truth": shells(truth[s, ..., c]).tolist()} for s in range(n)] for c in range(C)],
        "frmse": [pdebench_frmse(pred[..., c], truth[..., c]) for c in range(C)],
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
