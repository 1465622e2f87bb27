// The window never leaves the app: a top-level navigation (will-navigate), a navigation inside any
// frame (will-frame-navigate: an iframe a plot or a crafted page injects) and a server redirect
// on the way (will-redirect) are all refused unless they go to the app's own index.

/** The part of Electron's WebContents used here (so the guard runs in plain Node tests). */
export interface NavigationEvents {
  on(event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', listener: (ev: { url?: string; preventDefault(): void }, url?: string) => void): unknown;
}

export const GUARDED_NAVIGATION_EVENTS = ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const;

export function installNavigationGuards(contents: NavigationEvents, appUrl: string, log: (m: string) => void = console.warn): void {
  for (const name of GUARDED_NAVIGATION_EVENTS) {
    contents.on(name, (ev, url) => {
      // Electron >= 25 puts the target on the event's details; older signatures pass it second.
      const target = ev.url ?? url ?? '';
      if (target === appUrl) return;
      ev.preventDefault();
      log(`refused ${name} to ${target.slice(0, 200)}: the window stays on the app`);
    });
  }
}
