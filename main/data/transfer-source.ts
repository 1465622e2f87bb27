// Where a run's data at another grid come from (resolution transfer): solved at that grid by the
// workbench's own generator (a valid super-resolution test: each sample's random field, drawn as at
// the native grid, is put on N and the reference solved at N), or resampled from the native grid by interpolation (blends a binary
// coefficient's interface values and interpolates the reference: not a super-resolution test).
// Pure (no I/O): the engine refuses "solved" with the reason, the workspace lists it for the views.
import { z } from 'zod';

export const TRANSFER_SOURCES = ['solved', 'resampled'] as const;
export const TransferSource = z.enum(TRANSFER_SOURCES);
export type TransferSource = z.infer<typeof TransferSource>;

/** What of a stored dataset's manifest says whether the generator made it (a DatasetManifest fits). */
export interface ManifestSourceLike {
  id?: unknown;
  source?: { kind?: unknown; path?: unknown; name?: unknown; generator?: unknown } | null;
}

/** The generator's record in a generated dataset's manifest (main/data/generate/index.ts manifestOf). */
export interface GeneratorRecord {
  benchmark: string;
  preset: 'tiny' | 'quick' | 'paper';
  params: Record<string, unknown> & { samples: number };
  seed: number;
  overrides?: Record<string, unknown>;
}

const PRESETS = ['tiny', 'quick', 'paper'];

/** The generator's record when the manifest holds one the generator can run again; else null. */
export function generatorRecord(m: ManifestSourceLike): GeneratorRecord | null {
  if (m.source?.kind !== 'generated') return null;
  const g = m.source.generator as Record<string, unknown> | undefined;
  const p = g?.params as Record<string, unknown> | undefined;
  if (!g || !p || typeof g.benchmark !== 'string' || !PRESETS.includes(g.preset as string) || typeof g.seed !== 'number' || typeof p.samples !== 'number') return null;
  return g as unknown as GeneratorRecord;
}

/**
 * Why a stored dataset cannot be solved at another grid by the generator; null when it can.
 * Names the dataset and what its manifest lacks.
 */
export function whyNotSolvedDataset(m: ManifestSourceLike): string | null {
  const id = typeof m.id === 'string' ? m.id : 'this dataset';
  const src = m.source;
  if (src?.kind === 'file') {
    const file = typeof src.path === 'string' ? src.path.split(/[\\/]/).pop() : 'a file';
    return `dataset ${id} was imported from ${file}, not made by the workbench's generator: its manifest has no generator parameters to solve it at another grid, so it can only be resampled`;
  }
  if (src?.kind === 'arrays') return `dataset ${id} was made from arrays (${String(src.name ?? '')}), not by the workbench's generator: no generator parameters to solve it at another grid, so it can only be resampled`;
  const g = generatorRecord(m);
  if (!g) return `dataset ${id}: its manifest's source.generator lacks the generator's benchmark, preset, seed or parameters, so it cannot be solved again at another grid; it can only be resampled`;
  if (g.benchmark === 'airfoil') return `dataset ${id}: the airfoil data come on a fixed 221 × 51 C-grid; the generator has no other grid to solve at`;
  return null;
}

/** Why a run's data spec (config.data) cannot be solved at another grid; null when it can. Stored datasets: whyNotSolvedDataset. */
export function whyNotSolvedSpec(data: { kind?: unknown; benchmark?: unknown; path?: unknown }): string | null {
  if (data.kind === 'file') return `the run's data come from a file (${String(data.path ?? '').split(/[\\/]/).pop()}), not from the workbench's generator: they can only be resampled`;
  if (data.kind === 'generate' && data.benchmark === 'airfoil') return 'the airfoil data come on a fixed 221 × 51 C-grid; the generator has no other grid to solve at';
  return null;
}
