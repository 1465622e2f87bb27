// Airfoil stand-in (NOT the Geo-FNO data): the shape family and grid layout of Geo-FNO's airfoil benchmark
// with a cheap subsonic flow model instead of transonic Euler.
//   shape : NACA-0012 (closed trailing edge) deformed by a cubic design element with 8 control nodes
//           (free-form deformation: 4 nodes on its upper and 4 on its lower edge, cubic Bernstein along x,
//           linear across), each node moved vertically by U[-d, d];
//   grid  : body-fitted C-grid, ni x nj = 221 x 51: i runs from the far wake under the cut, around the
//           airfoil from the trailing edge along the lower surface to the leading edge and back along the
//           upper surface, then out along the wake; j = 0 on the wall/cut, j = nj-1 on the far field;
//   flow  : Hess-Smith panel method (constant-strength sources per panel plus one uniform vortex strength,
//           Kutta condition) at zero incidence, Karman-Tsien correction of Cp at M_inf, isentropic relations
//           for pressure, density and local Mach number.
// Output layout as Geo-FNO: X, Y [221, 51]; Q [5, 221, 51] = (density, x-velocity, y-velocity, pressure,
// Mach) with rho_inf = 1, p_inf = 1; Mach is channel 4.
import { sampleRng } from './rng';
import type { AirfoilParams, GeneratorParams } from './presets';
import type { Sampler } from './samplers';

const GAMMA = 1.4;

export function naca0012(x: number): number {
  return 5 * 0.12 * (0.2969 * Math.sqrt(x) - 0.126 * x - 0.3516 * x * x + 0.2843 * x ** 3 - 0.1036 * x ** 4);
}

/**
 * Cubic Bernstein basis in xi (free-form deformation): non-negative and a partition of unity, so the
 * displacement never overshoots the node displacements and the leading-edge slope stays moderate.
 * (A cubic Lagrange basis through the four nodes was tried first: its end slopes, up to 20 d, turned the
 * leading edge by up to 45 degrees and gave unphysical suction peaks.)
 */
function bernstein4(xi: number): [number, number, number, number] {
  const t = Math.min(1, Math.max(0, xi)), u = 1 - t;
  return [u * u * u, 3 * t * u * u, 3 * t * t * u, t * t * t];
}

/** Element height: large enough that no displacement in U[-0.05, 0.05] can invert the thickness. */
export const DESIGN_ELEMENT = { x0: 0, x1: 1, y0: -0.1, y1: 0.1 };

export function deform(x: number, y: number, top: ArrayLike<number>, bottom: ArrayLike<number>): number {
  const e = DESIGN_ELEMENT;
  const l = bernstein4((x - e.x0) / (e.x1 - e.x0));
  const eta = (y - e.y0) / (e.y1 - e.y0);
  let dy = 0;
  for (let a = 0; a < 4; a++) dy += l[a] * ((1 - eta) * bottom[a] + eta * top[a]);
  return y + dy;
}

/** Surface points from the trailing edge along the lower side to the leading edge and back (2m + 1 points, closed). */
export function airfoilSurface(m: number, top: ArrayLike<number>, bottom: ArrayLike<number>): { x: Float64Array; y: Float64Array } {
  const n = 2 * m + 1;
  const x = new Float64Array(n), y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const th = (Math.PI * k) / m; // 0..2 pi; cosine clustering at both edges
    const xc = (1 + Math.cos(th)) / 2;
    const yc = k <= m ? -naca0012(xc) : naca0012(xc);
    x[k] = xc;
    y[k] = deform(xc, k === 0 || k === n - 1 ? 0 : yc, top, bottom);
  }
  return { x, y };
}

export interface PanelSolution {
  /** Source strength per panel and the uniform vortex strength. */
  q: Float64Array;
  gamma: number;
  /** Tangential velocity at the panel midpoints (along the point order). */
  vt: Float64Array;
  velocity(px: number, py: number): [number, number];
}

/** Hess-Smith panel method around the closed polygon (x, y), free stream (1, 0). */
export function panelSolve(x: Float64Array, y: Float64Array): PanelSolution {
  const N = x.length - 1;
  const tx = new Float64Array(N), ty = new Float64Array(N), len = new Float64Array(N), cx = new Float64Array(N), cy = new Float64Array(N);
  for (let j = 0; j < N; j++) {
    const dx = x[j + 1] - x[j], dy = y[j + 1] - y[j];
    len[j] = Math.hypot(dx, dy);
    tx[j] = dx / len[j];
    ty[j] = dy / len[j];
    cx[j] = (x[j] + x[j + 1]) / 2;
    cy[j] = (y[j] + y[j + 1]) / 2;
  }
  // velocity at P induced by unit source (us) and unit vortex (uv) on panel j, global frame
  const influence = (j: number, px: number, py: number, self: boolean): [number, number, number, number] => {
    const rx = px - x[j], ry = py - y[j];
    const xi = rx * tx[j] + ry * ty[j];
    const eta = -rx * ty[j] + ry * tx[j]; // normal n = (-ty, tx)
    const r1 = xi * xi + eta * eta, r2 = (xi - len[j]) ** 2 + eta * eta;
    const lg = 0.25 * Math.log(r1 / r2) / Math.PI;
    const beta = self ? 0.5 : (Math.atan2(eta, xi - len[j]) - Math.atan2(eta, xi)) / (2 * Math.PI);
    // source: (lg, beta) in (xi, eta); vortex: (-beta, lg)
    const su = lg * tx[j] - beta * ty[j], sv = lg * ty[j] + beta * tx[j];
    const vu = -beta * tx[j] - lg * ty[j], vv = -beta * ty[j] + lg * tx[j];
    return [su, sv, vu, vv];
  };
  const n = N + 1;
  const A = new Float64Array(n * n), b = new Float64Array(n);
  const Vt = new Float64Array(N); // tangential velocity from the unit vortex, for Kutta and vt
  const Vtq = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    const nx = -ty[i], ny = tx[i];
    let vsum = 0, vtsum = 0;
    for (let j = 0; j < N; j++) {
      const [su, sv, vu, vv] = influence(j, cx[i], cy[i], i === j);
      A[i * n + j] = su * nx + sv * ny;
      vsum += vu * nx + vv * ny;
      Vtq[i * N + j] = su * tx[i] + sv * ty[i];
      vtsum += vu * tx[i] + vv * ty[i];
    }
    A[i * n + N] = vsum;
    Vt[i] = vtsum;
    b[i] = -(1 * nx + 0 * ny);
  }
  // Kutta: tangential velocities of the first and last panels cancel (equal speed leaving the edge)
  for (let j = 0; j < N; j++) A[N * n + j] = Vtq[j] + Vtq[(N - 1) * N + j];
  A[N * n + N] = Vt[0] + Vt[N - 1];
  b[N] = -(tx[0] + tx[N - 1]);
  const sol = gauss(A, b, n);
  const q = sol.subarray(0, N);
  const gamma = sol[N];
  const vt = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let v = tx[i] + gamma * Vt[i];
    for (let j = 0; j < N; j++) v += q[j] * Vtq[i * N + j];
    vt[i] = v;
  }
  return {
    q, gamma, vt,
    velocity(px, py) {
      let u = 1, v = 0;
      for (let j = 0; j < N; j++) {
        const [su, sv, vu, vv] = influence(j, px, py, false);
        u += q[j] * su + gamma * vu;
        v += q[j] * sv + gamma * vv;
      }
      return [u, v];
    },
  };
}

function gauss(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const M = A.slice(), x = b.slice();
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * n + c]) > Math.abs(M[p * n + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) { const t = M[c * n + k]; M[c * n + k] = M[p * n + k]; M[p * n + k] = t; }
      const t = x[c]; x[c] = x[p]; x[p] = t;
    }
    const d = M[c * n + c];
    for (let r = c + 1; r < n; r++) {
      const f = M[r * n + c] / d;
      if (f === 0) continue;
      for (let k = c; k < n; k++) M[r * n + k] -= f * M[c * n + k];
      x[r] -= f * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = x[r];
    for (let k = r + 1; k < n; k++) v -= M[r * n + k] * x[k];
    x[r] = v / M[r * n + r];
  }
  return x;
}

/** First-ratio geometric spacing: s_0 = 0, s_n = 1, s_1 = first. */
function stretched(n: number, first: number): Float64Array {
  let lo = 1.0000001, hi = 2;
  const f = (r: number) => (r - 1) / (r ** n - 1);
  if (f(lo) < first) { // uniform is already coarser than `first`
    return Float64Array.from({ length: n + 1 }, (_, k) => k / n);
  }
  for (let it = 0; it < 200; it++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > first) lo = mid; else hi = mid;
  }
  const r = (lo + hi) / 2;
  return Float64Array.from({ length: n + 1 }, (_, k) => (r ** k - 1) / (r ** n - 1));
}

export interface AirfoilSample { X: Float32Array; Y: Float32Array; Q: Float32Array; gamma: number; maxMach: number }

export function airfoilFromDisplacements(top: ArrayLike<number>, bottom: ArrayLike<number>, p: AirfoilParams): AirfoilSample {
  const { ni, nj, wake, machInf, farField: R } = p;
  const m = (ni - 2 * wake - 1) / 2;
  if (!Number.isInteger(m) || m < 8) throw new Error(`airfoil: ni - 2 * wake must be odd and >= 17 (got ni=${ni}, wake=${wake})`);
  const surf = airfoilSurface(m, top, bottom);
  const panels = panelSolve(surf.x, surf.y);
  const yTE = surf.y[0];
  // inner (j = 0) and outer (j = nj-1) curves of the C
  const ix = new Float64Array(ni), iy = new Float64Array(ni), ox = new Float64Array(ni), oy = new Float64Array(ni);
  const wk = stretched(wake, 0.01 / R);
  for (let k = 0; k < wake; k++) {
    const xw = 1 + R * wk[wake - k]; // i = 0 is the far end
    ix[k] = xw; iy[k] = yTE; ox[k] = xw; oy[k] = yTE - R;
    ix[ni - 1 - k] = xw; iy[ni - 1 - k] = yTE; ox[ni - 1 - k] = xw; oy[ni - 1 - k] = yTE + R;
  }
  for (let a = 0; a <= 2 * m; a++) {
    const i = wake + a;
    ix[i] = surf.x[a]; iy[i] = surf.y[a];
    const phi = -Math.PI / 2 - (Math.PI * a) / (2 * m);
    ox[i] = 1 + R * Math.cos(phi); oy[i] = yTE + R * Math.sin(phi);
  }
  const sj = stretched(nj - 1, 0.004 / R);
  const X = new Float32Array(ni * nj), Y = new Float32Array(ni * nj), Q = new Float32Array(5 * ni * nj);
  const beta = Math.sqrt(1 - machInf * machInf);
  const p0 = Math.pow(1 + ((GAMMA - 1) / 2) * machInf ** 2, GAMMA / (GAMMA - 1)); // total / static pressure
  let maxMach = 0;
  const plane = ni * nj;
  for (let i = 0; i < ni; i++) {
    for (let j = 0; j < nj; j++) {
      const px = ix[i] + sj[j] * (ox[i] - ix[i]);
      const py = iy[i] + sj[j] * (oy[i] - iy[i]);
      let u: number, v: number;
      const a = i - wake;
      if (j === 0 && a >= 0 && a <= 2 * m) {
        // on the wall: panel tangential speeds averaged onto the node (the trailing edge closes the loop)
        const N = 2 * m;
        const left = a === 0 ? N - 1 : a - 1, right = a === N ? 0 : a;
        const dxl = surf.x[left + 1] - surf.x[left], dyl = surf.y[left + 1] - surf.y[left];
        const dxr = surf.x[right + 1] - surf.x[right], dyr = surf.y[right + 1] - surf.y[right];
        const ll = Math.hypot(dxl, dyl), lr = Math.hypot(dxr, dyr);
        const vl = panels.vt[left], vr = panels.vt[right];
        u = 0.5 * (vl * dxl / ll + vr * dxr / lr);
        v = 0.5 * (vl * dyl / ll + vr * dyr / lr);
      } else {
        [u, v] = panels.velocity(px, py);
      }
      const q2 = u * u + v * v;
      const cp0 = 1 - q2;
      const cp = cp0 / (beta + (machInf ** 2 / (1 + beta)) * (cp0 / 2)); // Karman-Tsien
      const pr = Math.max(1e-3, 1 + (GAMMA / 2) * machInf ** 2 * cp); // p / p_inf
      const mach = Math.sqrt(Math.max(0, (2 / (GAMMA - 1)) * (Math.pow(p0 / pr, (GAMMA - 1) / GAMMA) - 1)));
      const rho = Math.pow(pr, 1 / GAMMA);
      const speed = mach * Math.sqrt((GAMMA * pr) / rho);
      const sq = Math.sqrt(q2);
      const k = i * nj + j;
      X[k] = px;
      Y[k] = py;
      Q[k] = rho;
      Q[plane + k] = sq > 0 ? (speed * u) / sq : 0;
      Q[2 * plane + k] = sq > 0 ? (speed * v) / sq : 0;
      Q[3 * plane + k] = pr;
      Q[4 * plane + k] = mach;
      if (mach > maxMach) maxMach = mach;
    }
  }
  return { X, Y, Q, gamma: panels.gamma, maxMach };
}

export function airfoilSample(seed: number, index: number, p: AirfoilParams): AirfoilSample {
  const rng = sampleRng(seed, 'airfoil', index);
  const top = Array.from({ length: 4 }, () => (2 * rng.uniform() - 1) * p.displacement);
  const bottom = Array.from({ length: 4 }, () => (2 * rng.uniform() - 1) * p.displacement);
  return airfoilFromDisplacements(top, bottom, p);
}

export const airfoilSampler: Sampler = {
  shapes: (p: GeneratorParams) => {
    const q = p as AirfoilParams;
    return { NACA_Cylinder_X: [q.ni, q.nj], NACA_Cylinder_Y: [q.ni, q.nj], NACA_Cylinder_Q: [5, q.ni, q.nj] };
  },
  sample: (seed, index, p) => {
    if (p.benchmark !== 'airfoil') throw new Error('airfoil sampler: wrong parameters');
    const r = airfoilSample(seed, index, p);
    return { arrays: { NACA_Cylinder_X: r.X, NACA_Cylinder_Y: r.Y, NACA_Cylinder_Q: r.Q }, stats: { circulation: r.gamma, maxMach: r.maxMach } };
  },
};
