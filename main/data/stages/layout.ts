// How the arrays of a file become samples, before the split: PDEBench layouts. Per-sample groups
// ('0000/data' [T, ...grid, C]) are stacked into samples; HDF5 written in MATLAB order without
// MATLAB's class attributes can be read with its axes reversed; a time axis is split into
// operator pairs (t0 -> t1) or kept as trajectories for autoregressive windows (T_in -> T_out).
// The result is in-memory arrays in the pipeline's usual form: [N, ...grid] per variable, or
// trajectories [N, ...grid, T] for the windows.
import { DataError } from '../formats/errors';
import type { DataFile, VariableInfo } from '../formats/types';
import { ndarray, type NdArray, type TypedArray } from '../ndarray';
import { moveAxisLast, reverseAxes, takeAlong } from './reverse-axes';

export type TimeSplit =
  | { axis: number; mode: 'operator'; t0: number; t1: number }
  | { axis: number; mode: 'autoregressive'; tIn: number; tOut: number };

export interface SourceLayout {
  /** 'reversed': axes read in MATLAB's (column-major) order, i.e. reversed from HDF5's stored order. */
  axisOrder?: 'stored' | 'reversed';
  /** Per-sample groups ('0000/data', '0001/data', ...): variable names are the groups' members. */
  groups?: boolean;
  /** Several target variables as output channels (CFD: Vx, Vy, density, pressure), `target` among them; not with autoregressive windows. */
  targets?: string[];
  /** Which axis (of the variables as read, samples on axis 0) is time, and how it is split. */
  time?: TimeSplit;
}

const GROUP = /^(\d+)\/(.+)$/;
const size = (b: number) => (b < 2 ** 20 ? `${(b / 1024).toFixed(1)} KiB` : b < 2 ** 30 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 2 ** 30).toFixed(2)} GiB`);
const CHANNEL = /^(.+)\[(\d+)\]$/;
/** A last axis at most this long on a per-sample member is its variables (PDEBench's C). */
const MAX_CHANNELS = 16;

/** Per-sample groups of a listing: group names (sorted) and each member's shape (the first group's). */
export function sampleGroups(vars: readonly VariableInfo[]): { groups: string[]; members: Map<string, VariableInfo> } | null {
  const groups = new Set<string>();
  const members = new Map<string, VariableInfo>();
  for (const v of vars) {
    const m = GROUP.exec(v.name);
    if (!m) continue;
    groups.add(m[1]);
    if (!members.has(m[2])) members.set(m[2], v);
  }
  if (groups.size < 2) return null;
  return { groups: [...groups].sort(), members };
}

/**
 * The per-sample groups as the variables they stack into: member 'data' [T, X, C] of G groups is
 * 'data[0]'..'data[C-1]' [G, T, X] (or 'data' when C is 1). Coordinates (rank below 2) are left out.
 */
export function groupVariables(vars: readonly VariableInfo[]): VariableInfo[] {
  const g = sampleGroups(vars);
  if (!g) return [];
  const out: VariableInfo[] = [];
  const G = g.groups.length;
  for (const [name, v] of g.members) {
    if (v.unsupported || v.shape.length < 2) continue;
    const C = v.shape[v.shape.length - 1];
    const per = (shape: number[]) => ({ shape, dtype: v.dtype, bytes: (v.bytes / v.shape.reduce((a, b) => a * b, 1)) * shape.reduce((a, b) => a * b, 1) });
    if (v.shape.length >= 3 && C <= MAX_CHANNELS) {
      const shape = [G, ...v.shape.slice(0, -1)];
      if (C === 1) out.push({ name, ...per(shape), note: `${G} groups stacked as samples` });
      else for (let c = 0; c < C; c++) out.push({ name: `${name}[${c}]`, ...per(shape), note: `channel ${c} of ${G} groups stacked as samples` });
    } else out.push({ name, ...per([G, ...v.shape]), note: `${G} groups stacked as samples` });
  }
  return out;
}

function stack(parts: NdArray[], file: string, name: string): NdArray {
  const shape = parts[0].shape;
  const per = parts[0].data.length;
  const out = new (parts[0].data.constructor as { new (n: number): TypedArray })(per * parts.length);
  parts.forEach((p, i) => {
    if (p.shape.join() !== shape.join()) throw new DataError(file, name, `group ${i} has shape [${p.shape.join(', ')}], group 0 [${shape.join(', ')}]`, 'the same shape in every group');
    (out as Float64Array).set(p.data as Float64Array, i * per);
  });
  return ndarray(out, [parts.length, ...shape], parts[0].dtype);
}

function lastChannel(a: NdArray, c: number, file: string, name: string): NdArray {
  const C = a.shape[a.shape.length - 1];
  if (c >= C) throw new DataError(file, name, `channel ${c} of ${C}`, `a channel 0..${C - 1}`);
  return takeAlong(a, a.shape.length - 1, c);
}

/** Reads one variable as the layout names it (group member, channel, reversed axes). */
async function readVariable(f: DataFile, layout: SourceLayout, name: string, budget: number, groups: string[] | null): Promise<NdArray> {
  const info = f.variables();
  const check = (bytes: number) => {
    if (bytes > budget) throw new DataError(f.path, name, `${size(bytes)} to read whole for the layout`, `at most ${size(budget)} (the memory budget)`);
  };
  const oriented = (a: NdArray) => (layout.axisOrder === 'reversed' ? reverseAxes(a) : a);
  if (groups) {
    const ch = CHANNEL.exec(name);
    const member = ch ? ch[1] : name;
    const parts: NdArray[] = [];
    for (const g of groups) {
      const v = info.find((x) => x.name === `${g}/${member}`);
      if (!v) throw new DataError(f.path, `${g}/${member}`, 'no such dataset in this group', `'${member}' in every group`);
      check(v.bytes * groups.length);
      let a = oriented(await f.read(v.name));
      const C = a.shape[a.shape.length - 1];
      if (ch) a = lastChannel(a, Number(ch[2]), f.path, name);
      else if (a.shape.length >= 3 && C === 1) a = takeAlong(a, a.shape.length - 1, 0);
      else if (a.shape.length >= 3 && C <= MAX_CHANNELS) throw new DataError(f.path, name, `has ${C} channels on its last axis`, `one of ${Array.from({ length: C }, (_, c) => `'${member}[${c}]'`).join(', ')}`);
      parts.push(a);
    }
    return stack(parts, f.path, name);
  }
  const v = info.find((x) => x.name === name);
  if (!v) throw new DataError(f.path, name, 'no such variable', info.map((k) => `'${k.name}'`).join(', ') || 'a numeric variable');
  if (v.unsupported) throw new DataError(f.path, name, v.unsupported, 'a real numeric array');
  check(v.bytes);
  return oriented(await f.read(name));
}

/** A reader with hyperslabs (plain HDF5). */
interface SlabFile extends DataFile { readSlab(name: string, ranges: Array<[number, number] | null>): Promise<NdArray> }

function listed(f: DataFile, name: string): VariableInfo {
  const v = f.variables().find((x) => x.name === name);
  if (!v) throw new DataError(f.path, name, 'no such variable', f.variables().map((k) => `'${k.name}'`).join(', ') || 'a numeric variable');
  if (v.unsupported) throw new DataError(f.path, name, v.unsupported, 'a real numeric array');
  return v;
}

export interface LaidOut {
  variables: Record<string, NdArray>;
  input: string[];
  target: string;
  /** Further target variables, output channels after `target`. */
  extraTargets: string[];
  /** Autoregressive windows over the trajectories [N, ...grid, T]. */
  windows?: { tIn: number; tOut: number };
  /** What was read as what, for the manifest's warnings. */
  notes: string[];
}

const axesText = (shape: readonly number[], time: number | null) =>
  shape.map((d, k) => `${k === 0 ? 'N' : k === time ? 'T' : `x${k - (time !== null && k > time ? 2 : 1)}`}=${d}`).join(', ');

/** Applies a layout to a file: reads the chosen variables whole and returns them in the pipeline's form. */
export async function applyLayout(f: DataFile, layout: SourceLayout, input: string[], target: string, budget: number): Promise<LaidOut> {
  const groups = layout.groups ? sampleGroups(f.variables())?.groups ?? null : null;
  if (layout.groups && !groups) throw new DataError(f.path, 'layout.groups', 'the file has no per-sample groups', "groups named '0000', '0001', ... each holding the same datasets");
  const targets = layout.targets?.length ? layout.targets : [target];
  if (!targets.includes(target)) throw new DataError(f.path, 'layout.targets', `${targets.map((n) => `'${n}'`).join(', ')} leaves out the target '${target}'`, 'the target among the target variables');
  const names = [...new Set([...input, ...targets])];
  const extra = targets.filter((n) => n !== target);
  const t = layout.time;
  // operator pairs from a plain HDF5 file: read just the two time steps (hyperslabs), not the series
  const slab = t?.mode === 'operator' && !groups && layout.axisOrder !== 'reversed' && 'readSlab' in f ? (f as SlabFile) : null;
  const shapes: Record<string, readonly number[]> = {};
  const raw: Record<string, NdArray> = {};
  for (const n of names) {
    if (slab) shapes[n] = listed(f, n).shape;
    else shapes[n] = (raw[n] = await readVariable(f, layout, n, budget, groups)).shape;
  }
  const take = async (n: string, axis: number, at: number): Promise<NdArray> => {
    if (!slab) return takeAlong(raw[n], axis, at);
    const v = listed(f, n);
    if (v.bytes / v.shape[axis] > budget) throw new DataError(f.path, n, `${size(v.bytes / v.shape[axis])} per time step`, `at most ${size(budget)} (the memory budget)`);
    const a = await slab.readSlab(n, v.shape.map((d, k) => (k === axis ? [at, at + 1] : null)));
    return ndarray(a.data, v.shape.filter((_, k) => k !== axis), a.dtype);
  };
  const notes: string[] = [];
  const how = [layout.groups ? `${groups!.length} groups as samples` : '', layout.axisOrder === 'reversed' ? 'axes reversed from the stored HDF5 order (MATLAB order)' : ''].filter(Boolean).join(', ');
  for (const n of names) notes.push(`read '${n}' as [${axesText(shapes[n], t ? t.axis : null)}]${how ? ` (${how})` : ''}`);
  if (!t) return { variables: raw, input, target, extraTargets: extra, notes };

  const shape = shapes[target];
  if (!Number.isInteger(t.axis) || t.axis < 1 || t.axis >= shape.length) {
    throw new DataError(f.path, 'layout.time.axis', `axis ${t.axis} of '${target}' [${shape.join(', ')}]`, `an axis 1..${shape.length - 1} (axis 0 is the samples)`);
  }
  for (const n of names) {
    if (shapes[n].join() !== shape.join()) throw new DataError(f.path, n, `shape [${shapes[n].join(', ')}] differs from '${target}' [${shape.join(', ')}]`, 'every variable of a time series with the same shape');
  }
  const T = shape[t.axis];
  if (t.mode === 'operator') {
    for (const [k, v] of [['t0', t.t0], ['t1', t.t1]] as const) {
      if (!Number.isInteger(v) || v < 0 || v >= T) throw new DataError(f.path, `layout.time.${k}`, `${v}, the time axis ${t.axis} has ${T} steps`, `0..${T - 1}`);
    }
    if (t.t0 === t.t1) throw new DataError(f.path, 'layout.time', `t0 = t1 = ${t.t0} is an identity task`, 'two different time steps');
    const ins = input.length ? input : [target];
    const variables: Record<string, NdArray> = {};
    const inNames: string[] = [];
    for (const n of ins) { const k = `${n}@t${t.t0}`; variables[k] = await take(n, t.axis, t.t0); inNames.push(k); }
    const outNames: string[] = [];
    for (const n of targets) { const k = `${n}@t${t.t1}`; variables[k] = await take(n, t.axis, t.t1); outNames.push(k); }
    notes.push(`operator: ${ins.map((n) => `'${n}'`).join(', ')} at t = ${t.t0} -> ${targets.map((n) => `'${n}'`).join(', ')} at t = ${t.t1} (time axis ${t.axis})`);
    const outName = `${target}@t${t.t1}`;
    return { variables, input: inNames, target: outName, extraTargets: outNames.filter((k) => k !== outName), notes };
  }
  if (extra.length) throw new DataError(f.path, 'layout.targets', `autoregressive windows over ${targets.length} variables`, 'one target variable (its frames are the channels), or operator mode for several');
  if (input.some((n) => n !== target)) {
    throw new DataError(f.path, 'input', `autoregressive windows take one variable's own history; inputs ${input.map((n) => `'${n}'`).join(', ')} given`, `no inputs (the history of '${target}'), or operator mode for several variables as channels`);
  }
  if (!Number.isInteger(t.tIn) || !Number.isInteger(t.tOut) || t.tIn < 1 || t.tOut < 1) throw new DataError(f.path, 'layout.time', `T_in ${t.tIn}, T_out ${t.tOut}`, 'positive integers');
  if (t.tIn + t.tOut > T) throw new DataError(f.path, target, `time axis ${t.axis} has ${T} steps, T_in + T_out = ${t.tIn + t.tOut}`, `at least ${t.tIn + t.tOut} steps on the time axis`);
  const traj = moveAxisLast(raw[target], t.axis);
  notes.push(`autoregressive: '${target}' frames 0..${t.tIn - 1} -> ${t.tIn}..${t.tIn + t.tOut - 1} along time axis ${t.axis}`);
  return { variables: { [target]: traj }, input: [], target, extraTargets: [], windows: { tIn: t.tIn, tOut: t.tOut }, notes };
}

/**
 * Why a Navier-Stokes trajectory [N, s, s, T] is too short, and which reading would fit: the
 * reversed (MATLAB) order or a PDEBench time axis 1.
 */
export function shortTrajectoryAdvice(shape: readonly number[], need: number, format: string): string {
  const tips: string[] = [`read as [N=${shape[0]}, H=${shape[1]}, W=${shape[2]}, T=${shape[3]}]${format === 'hdf5' ? ' in the stored HDF5 order' : ''}`];
  if (shape[0] >= need) tips.push(`with axes reversed (MATLAB order, layout.axisOrder 'reversed') it is [N=${shape[3]}, H=${shape[2]}, W=${shape[1]}, T=${shape[0]}]`);
  if (shape[1] >= need && shape[1] !== shape[2]) tips.push(`with time on axis 1 (PDEBench, layout.time axis 1 autoregressive) it is [N=${shape[0]}, T=${shape[1]}, H=${shape[2]}, W=${shape[3]}]`);
  return tips.join('; ');
}

/** Suggestions for the import dialog from a listing alone (nothing read). */
export function layoutHints(format: string, vars: readonly VariableInfo[]): string[] {
  const out: string[] = [];
  const g = sampleGroups(vars);
  if (g) out.push(`${g.groups.length} per-sample groups ('${g.groups[0]}', '${g.groups[1]}', ...): read them as samples (layout.groups)`);
  for (const v of vars) {
    if (v.unsupported || GROUP.test(v.name)) continue;
    const s = v.shape;
    if (format === 'hdf5' && s.length === 4 && s[3] < s[0] && s[1] === s[2]) {
      out.push(`'${v.name}' [${s.join(', ')}] may be stored in MATLAB order: reversed it reads [N=${s[3]}, H=${s[2]}, W=${s[1]}, T=${s[0]}] (layout.axisOrder 'reversed')`);
    }
    // [N, T, X] with T != X, or [N, T, H, W] with a square grid and T neither 1 (PDEBench Darcy's
    // singleton) nor the grid size; a square [N, s, s] is a 2-D field (Darcy), not a series
    if ((s.length === 3 && s[1] !== s[2]) || (s.length === 4 && s[2] === s[3] && s[1] !== s[2] && s[1] > 1)) {
      out.push(`'${v.name}' [${s.join(', ')}] looks like a time series [N, T, ${s.length === 3 ? 'X' : 'H, W'}]: choose operator (t0 -> t1) or autoregressive (T_in -> T_out) on time axis 1`);
    }
  }
  return out;
}
