#!/usr/bin/python3
"""A line-by-line NumPy/SciPy port of FNO's data_generation/darcy/solve_gwf.m, and the fixture it makes.

GNU Octave (which would run solve_gwf.m itself) is a heavy install, so this port stands in for it.
It follows the MATLAB file statement by statement, keeping MATLAB's conventions:
  * interp2(X1, Y1, V, X2, Y2, 'spline') on gridded data = not-a-knot cubic splines along each axis,
    extrapolating outside the source points (the nodal grid reaches 0 and 1, the cell centres do not);
    MATLAB's V(row, col) has rows along Y and columns along X;
  * spdiags(B, d, m, n) with m = n puts B(j, k) at A(j - d(k), j) (columns index B), as SciPy's does;
  * cell2mat of the (K-2) x (K-2) block cell array = a block matrix; F(:) is column-major;
  * vec2mat(x, K-2) fills a (K-2)-column matrix row by row, and the final ' transposes back;
  * A \\ F(:) is a sparse direct solve (scipy.sparse.linalg.spsolve, SuperLU), with NO clamp of the
    splined coefficient (it overshoots, and goes negative on the boundary nodes).
The coefficients are FNO's GRF.m law (alpha 2, tau 3, thresholded to 12 / 3) drawn with NumPy's
generator: the fixture only needs realistic fields, and stores them, so the test feeds the very same
fields to the workbench's solver.

Usage: /usr/bin/python3 tools/reference/solve_gwf_ref.py OUT.json
Writes {samples: [{K, coef (1 = 12, 0 = 3, row-major K x K), solution (base64, row-major,
the cell-centred P that solve_gwf returns, solved in float64, stored as float32 LE), solutionClamped (the same with the coefficient clamped to
[3, 12]), minNodalCoef}]}.
"""
import base64
import json
import sys

import numpy as np
import scipy.fft
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.interpolate import CubicSpline


def grf(rng, s, alpha=2.0, tau=3.0):
    """GRF.m: xi ~ N(0, 1), coefficients sqrt(eigs) * s, idct2 (orthonormal)."""
    xi = rng.standard_normal((s, s))
    k1, k2 = np.meshgrid(np.arange(s), np.arange(s), indexing="ij")
    coef = tau ** (alpha - 1) * (np.pi ** 2 * (k1 ** 2 + k2 ** 2) + tau ** 2) ** (-alpha / 2)
    L = s * coef * xi
    L[0, 0] = 0
    return scipy.fft.idctn(L, norm="ortho")


def interp2_spline(xs, V, xd):
    """interp2(Xs, Ys, V, Xd, Yd, 'spline') with Xs = Ys = meshgrid(xs) and Xd = Yd = meshgrid(xd)."""
    along_x = CubicSpline(xs, V, axis=1, bc_type="not-a-knot", extrapolate=True)(xd)
    return CubicSpline(xs, along_x, axis=0, bc_type="not-a-knot", extrapolate=True)(xd)


def solve_gwf(coef, F, clamp=False):
    K = coef.shape[0]
    x1 = np.arange(1 / (2 * K), (2 * K - 1) / (2 * K) + 1e-12, 1 / K)[:K]  # 1/(2K):1/K:(2K-1)/(2K)
    x2 = np.linspace(0, 1, K)                                                # 0:1/(K-1):1
    lo, hi = coef.min(), coef.max()
    coef = interp2_spline(x1, coef, x2)
    if clamp:
        coef = np.clip(coef, lo, hi)
    F = interp2_spline(x1, F, x2)
    F = F[1:K - 1, 1:K - 1]                                                  # F(2:K-1, 2:K-1)
    c = lambda i0, i1, j: coef[i0 - 1:i1, j - 1]                             # coef(i0:i1, j), 1-based
    m = K - 2
    d = [[None] * m for _ in range(m)]
    for j in range(2, K):                                                    # j = 2:K-1
        sub = np.concatenate([-(c(2, K - 2, j) + c(3, K - 1, j)) / 2, [0.0]])
        main = (c(1, K - 2, j) + c(2, K - 1, j)) / 2 + (c(3, K, j) + c(2, K - 1, j)) / 2 \
            + (c(2, K - 1, j - 1) + c(2, K - 1, j)) / 2 + (c(2, K - 1, j + 1) + c(2, K - 1, j)) / 2
        sup = np.concatenate([[0.0], -(c(2, K - 2, j) + c(3, K - 1, j)) / 2])
        d[j - 2][j - 2] = sp.spdiags(np.vstack([sub, main, sup]), [-1, 0, 1], m, m)
        if j != K - 1:
            d[j - 2][j - 1] = sp.spdiags(-(c(2, K - 1, j) + c(2, K - 1, j + 1)) / 2, 0, m, m)
            d[j - 1][j - 2] = d[j - 2][j - 1]
    A = sp.bmat(d, format="csc") * (K - 1) ** 2
    x = spla.spsolve(A, F.flatten(order="F"))                                # A \ F(:)
    P = np.zeros((K, K))
    P[1:K - 1, 1:K - 1] = x.reshape(m, m)                                    # vec2mat(x, K-2)
    return interp2_spline(x2, P, x1).T, coef.min()                           # interp2(...)'


def main(out):
    rng = np.random.default_rng(17)
    samples = []
    for K in (29, 29, 29, 85):
        a = np.where(grf(rng, K) >= 0, 12.0, 3.0)
        P, cmin = solve_gwf(a, np.ones((K, K)))
        Pc, _ = solve_gwf(a, np.ones((K, K)), clamp=True)
        # float32 keeps the file small; its rounding (6e-8 relative) is far below the 1e-6 the test asks
        b64 = lambda v: base64.b64encode(np.ascontiguousarray(v, dtype="<f4").tobytes()).decode()
        samples.append({
            "K": K,
            "coef": "".join("1" if v == 12.0 else "0" for v in a.ravel()),
            "solution": b64(P),
            "solutionClamped": b64(Pc),
            "minNodalCoef": float(cmin),
        })
    doc = {
        "generator": "tools/reference/solve_gwf_ref.py (NumPy/SciPy port of FNO solve_gwf.m; scipy %s)" % scipy.__version__,
        "layout": "coef: K*K chars row-major, '1' = 12, '0' = 3; solution: base64 float32 little-endian (solved in float64), row-major K x K",
        "samples": samples,
    }
    with open(out, "w") as f:
        json.dump(doc, f)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
