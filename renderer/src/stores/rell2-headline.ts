// The workspace setting that chooses the relL2 every view headlines (normalized | decoded): read
// from the workspace summary the app store holds (workspace.get answers it), set through
// workspace.settings, then the summary is read again so every view redraws with it.
import { useApp } from './app-store';
import type { RelL2Headline } from '../logic/rell2-headline';

/** The open workspace's headline convention ('normalized' until the workspace is read). */
export const useRelL2Headline = (): RelL2Headline => useApp((s) => s.workspace?.settings?.relL2Headline ?? 'normalized');

/** Stores the convention in the workspace's settings and reads the workspace again. */
export async function saveRelL2Headline(relL2Headline: RelL2Headline): Promise<void> {
  const { api, refreshWorkspace, reportError } = useApp.getState();
  if (!api) return;
  try {
    await api.call('workspace.settings', { relL2Headline });
    await refreshWorkspace();
  } catch (e) {
    reportError('saving the workspace settings', e);
  }
}
