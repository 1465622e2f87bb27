// Which rollout steps a figure shows: evenly spaced defaults and the user's typed list, both
// 1-based (step k is the k-th predicted frame after the T_in history frames).

/** k steps from 1..total, evenly spaced, always including the first and the last. */
export function evenlySpacedSteps(total: number, k: number): number[] {
  if (!Number.isInteger(total) || total < 1) return [];
  const n = Math.max(1, Math.min(Math.floor(k), total));
  if (n === 1) return [total];
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(1 + Math.round((i * (total - 1)) / (n - 1)));
  return [...out].sort((a, b) => a - b);
}

export const MAX_FIGURE_STEPS = 10;

/** Parses "1, 4, 8" into sorted unique steps within 1..total, or says what is wrong with it. */
export function parseSteps(text: string, total: number): { steps: number[] } | { error: string } {
  const parts = text.split(/[\s,;]+/).filter((p) => p.length > 0);
  if (parts.length === 0) return { error: `list one or more steps from 1 to ${total}, e.g. ${evenlySpacedSteps(total, 4).join(', ')}` };
  const steps = new Set<number>();
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isInteger(v) || v < 1 || v > total) return { error: `'${p}' is not a step from 1 to ${total}` };
    steps.add(v);
  }
  if (steps.size > MAX_FIGURE_STEPS) return { error: `at most ${MAX_FIGURE_STEPS} steps fit one figure (${steps.size} listed)` };
  return { steps: [...steps].sort((a, b) => a - b) };
}

/** Up to `max` consecutive steps of 1..total around `current` (all of them when they fit). */
export function stepWindow(total: number, current: number, max = 10): number[] {
  const n = Math.min(total, max);
  const start = Math.min(Math.max(1, current - Math.floor(n / 2)), total - n + 1);
  return Array.from({ length: n }, (_, i) => start + i);
}
