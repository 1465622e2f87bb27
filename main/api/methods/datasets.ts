// The contract's calls for datasets: presets, generation, inspection and import of a user's file, samples, statistics, export, labels.
// Spread into the one typed `methods` table of ../contract.ts (schemas and types only: no I/O).
import { z } from 'zod';
import { empty, type MethodSpec } from '../method-spec';
import { Benchmark } from '../../data/data-spec';
import { DatasetId, DatasetSample, DatasetStats } from '../../data/dataset-records';
import { FileRef } from '../files';
import { WorkspaceSummary } from '../host-records';
import { GenerateParams, ImportParams, JobSummary } from '../jobs';

export const datasetsMethods = {
  /** Per-channel min/max/mean/std of a stored dataset's split, computed from the store. */
  'datasets.stats': {
    route: 'engine+workspace',
    params: z.object({ id: DatasetId, split: z.enum(['train', 'val', 'test']).default('train') }).strict(),
    result: DatasetStats,
  },
  /** Export a stored dataset into exports/<id>-<layout>-<format>/ (an 'export' job: progress, cancel); as `lino data export`. */
  'datasets.export': {
    route: 'engine+workspace',
    params: z.object({ id: DatasetId, format: z.enum(['npy', 'mat73']).default('mat73'), layout: z.enum(['raw', 'prepared']).default('raw') }).strict(),
    result: JobSummary,
  },
  /** The benchmark generators' presets (main/data/generate/presets.ts) with their parameters. */
  'datasets.presets': {
    route: 'engine',
    params: empty,
    result: z.array(z.object({ benchmark: Benchmark, presets: z.record(z.string(), z.record(z.string(), z.unknown())) })),
  },
  /** Generate a benchmark from a preset into the workspace's datasets/ (a 'generate' job: progress, ETA, cancel). */
  'datasets.generate': {
    route: 'engine+workspace',
    params: GenerateParams,
    result: JobSummary,
  },
  /** The variables of a data file the user chose (format detected by magic bytes), before loading anything. */
  'datasets.inspect': {
    route: 'engine+workspace', files: ['file'],
    params: z.object({ file: FileRef }).strict(),
    result: z.object({
      name: z.string(),
      format: z.string(),
      variables: z.array(z.object({ name: z.string(), shape: z.array(z.number()), dtype: z.string(), bytes: z.number(), unsupported: z.string().optional() })),
      /** Per-sample groups ('0000/data', ...) as the variables they stack into (layout.groups). */
      groups: z.array(z.object({ name: z.string(), shape: z.array(z.number()), dtype: z.string(), bytes: z.number() })).optional(),
      /** Layout suggestions read from the listing (time series, MATLAB order, groups). */
      hints: z.array(z.string()).optional(),
    }),
  },
  /** Prepare a chosen file into the workspace's dataset store (an 'import' job): input variables -> target. */
  'datasets.import': {
    route: 'engine+workspace', files: ['file'],
    params: ImportParams,
    result: JobSummary,
  },
  /** One sample of a stored dataset for preview: physical values per channel, row-major over the grid. */
  'datasets.sample': {
    route: 'engine+workspace',
    params: z
      .object({ id: z.string().max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a dataset id'), split: z.enum(['train', 'val', 'test']).default('val'), index: z.number().int().min(0).default(0) })
      .strict(),
    result: DatasetSample,
  },
  /** The user's own label of a dataset ('' clears it); answers the workspace with the new names. */
  'datasets.label': { route: 'host', params: z.object({ id: DatasetId, label: z.string().max(80).regex(/^[^\u0000-\u001f]*$/, 'no control characters') }).strict(), result: WorkspaceSummary },
} as const satisfies Record<string, MethodSpec>;
