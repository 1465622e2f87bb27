// Fills the Sweeps view's form with the 2×2 grid the sweeps e2e and the walk script both start
// (model.width 4, 8 × optimizer.lr 1e-3, 1e-2, method grid), so the two drive the form one way.
import type { Page } from 'playwright-core';

export interface GridForm { name: string; epochs: string; seeds: string; dataset?: RegExp }

export async function fillGridSweepForm(page: Page, f: GridForm): Promise<void> {
  const form = page.getByTestId('sweep-form');
  await form.getByLabel('Sweep name').fill(f.name);
  if (f.dataset) {
    const option = form.getByLabel('Dataset').locator('option').filter({ hasText: f.dataset }).first();
    await form.getByLabel('Dataset').selectOption((await option.getAttribute('value'))!);
  }
  await form.getByLabel('Model kind').selectOption('lino');
  await form.getByLabel('Epochs per trial').fill(f.epochs);
  await form.getByLabel('Axis 1 field').selectOption('model.width');
  await form.getByLabel('Axis 1 values').fill('4, 8');
  if (await form.getByLabel('Axis 2 field').count() === 0) await form.getByRole('button', { name: 'Add an axis' }).click();
  await form.getByLabel('Axis 2 field').selectOption('optimizer.lr');
  await form.getByLabel('Axis 2 kind').selectOption('list');
  await form.getByLabel('Axis 2 values').fill('0.001, 0.01');
  await form.getByLabel('Method').selectOption('grid');
  await form.getByLabel('Seeds per configuration').fill(f.seeds);
}
