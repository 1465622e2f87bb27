// An axe-core audit of the page as it is: injected through the DevTools protocol (the page's CSP
// forbids inline scripts, and loosening it for tests would test a different page), run over the
// whole document, failing on serious and critical violations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded !== 'object') await page.evaluate(`${source};0`);
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
}

/** Throws, listing every serious or critical violation with where it is. */
export async function assertAccessible(page: Page, where: string): Promise<AxeViolation[]> {
  const all = await axeViolations(page);
  const bad = all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0) {
    const lines = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ')}`).join('\n    ')}`);
    throw new Error(`axe found ${bad.length} serious/critical violation(s) in ${where}:\n  ${lines.join('\n  ')}`);
  }
  return all;
}
