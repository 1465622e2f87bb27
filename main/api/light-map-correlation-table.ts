// The light-map correlation table (runs.lightMapsCorrelation) laid out as `lino lightmaps --correlate
// --csv` writes it: per block three rows (pooled, mean, std), one column per map, a map the block
// does not have left empty, an undefined r NaN. The Light maps view exports this through the
// table export bar, so its CSV has the CLI's rows and columns (at full precision; the CLI's 4 decimals).
import { LIGHT_MAP_CORRELATED, type LightMapsCorrelationResult } from './contract';
import type { TableColumn, TableRow } from './table';

export const CORRELATION_STATISTICS = ['pooled', 'mean', 'std'] as const;

/** Display labels of the maps (the LaTeX header of `lino lightmaps --correlate --latex`). */
export const CORRELATED_MAP_LABELS: Record<(typeof LIGHT_MAP_CORRELATED)[number], string> = {
  reflectionActivity: 'refl. activity',
  refractionActivity: 'refr. activity',
  reflection: 'refl. contrib.',
  refraction: 'refr. contrib.',
  scattering: 'scat. contrib.',
};

/** Columns keyed and labelled like the CLI's CSV header ('block', 'statistic', then the map names). */
export function correlationTable(r: LightMapsCorrelationResult): { columns: TableColumn[]; rows: TableRow[] } {
  const columns: TableColumn[] = [
    { key: 'block', label: 'block', align: 'r' },
    { key: 'statistic', label: 'statistic' },
    ...LIGHT_MAP_CORRELATED.map((k) => ({ key: k, label: k, align: 'r' as const })),
  ];
  const rows = r.blocks.flatMap(({ block, maps }) => CORRELATION_STATISTICS.map((st) => {
    const row: TableRow = { block, statistic: st };
    for (const k of LIGHT_MAP_CORRELATED) {
      const c = maps.find((m) => m.map === k);
      row[k] = c ? (c[st] ?? Number.NaN) : null;
    }
    return row;
  }));
  return { columns, rows };
}
