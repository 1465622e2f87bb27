// What the Datasets view reads and starts in the engine: generation presets, a sample's preview,
// channel statistics, and the generate / import / export jobs (their progress arrives on job
// events in the app store).
import type { Params, Result } from '../../../main/api/contract';
import { requireApi } from '../stores/app-store';
import { useQuery } from './use-query';

type Split = 'train' | 'val' | 'test';

const api = requireApi;

export const useDatasetPresets = () => useQuery('presets', (a) => a.call('datasets.presets', {}));

/** One row of a split, physical units; the previous one stays shown while the next loads. */
export const useDatasetSample = (id: string, split: Split, index: number) =>
  useQuery(`${id}|${split}|${index}`, (a) => a.call('datasets.sample', { id, split, index }), { keep: true });

export const useDatasetStats = (id: string, split: Split) => useQuery(`${id}|${split}`, (a) => a.call('datasets.stats', { id, split }));

export async function generateDataset(params: Params<'datasets.generate'>): Promise<void> {
  await api().call('datasets.generate', params);
}

/** Starts a dataset export job; answers its id. */
export async function exportDataset(params: Params<'datasets.export'>): Promise<string> {
  return (await api().call('datasets.export', params)).id;
}

/** What a data file holds (arrays, shapes) and the import layout the engine proposes. */
export function inspectFile(file: string): Promise<Result<'datasets.inspect'>> {
  return api().call('datasets.inspect', { file });
}

/** Starts importing a file as a dataset; answers the job. */
export function importFile(params: Params<'datasets.import'>): Promise<Result<'datasets.import'>> {
  return api().call('datasets.import', params);
}
