// The workspace setting "headline relL2" (normalized | decoded) applied to a pair of numbers: which
// one a view puts first, the other beside it, each with its convention's name, so every view reads
// the same convention and says which. Pure: the setting itself is read through stores/rell2-headline.ts.
import type { RelL2Headline } from '../../../main/api/contract';

export type { RelL2Headline };
/** A relL2 in both conventions (an evaluation's sample or split, a run's best epoch). */
export interface BothRelL2 { relL2: number | null; relL2Decoded: number | null }
export interface Headlined { value: number | null; convention: RelL2Headline; other: { value: number | null; convention: RelL2Headline } }

const OTHER: Record<RelL2Headline, RelL2Headline> = { normalized: 'decoded', decoded: 'normalized' };
const pick = (m: BothRelL2, c: RelL2Headline) => (c === 'decoded' ? m.relL2Decoded : m.relL2);

/** The headlined value and the other one, each with its convention. */
export function headlineRelL2(m: BothRelL2, h: RelL2Headline): Headlined {
  return { value: pick(m, h), convention: h, other: { value: pick(m, OTHER[h]), convention: OTHER[h] } };
}

const num = (v: number | null, digits: number) => (v === null || !Number.isFinite(v) ? '–' : v.toPrecision(digits));

/** "0.1234 (normalized)" or, with `withOther`, "0.1234 (normalized; 0.2345 decoded)". */
export function headlineText(m: BothRelL2, h: RelL2Headline, withOther = false, digits = 4): string {
  const x = headlineRelL2(m, h);
  return `${num(x.value, digits)} (${x.convention}${withOther ? `; ${num(x.other.value, digits)} ${x.other.convention}` : ''})`;
}

/** A column or axis title naming the convention: "Best val relL2 (decoded)". */
export const relL2Title = (what: string, h: RelL2Headline) => `${what} (${h})`;
