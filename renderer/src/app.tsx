import { Suspense, useEffect } from 'react';
import { useApp } from './stores/app-store';
import { VIEWS } from './views';
import { ErrorBanner } from './components/error-banner';
import { EngineStatusBar } from './components/engine-status';
import { ViewBoundary } from './components/view-boundary';

export function App() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0];
  const Current = current.component;
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">LiNO Workbench</div>
        <ul>
          {VIEWS.map((v) => (
            <li key={v.id}>
              <button className={v.id === current.id ? 'nav active' : 'nav'} aria-current={v.id === current.id ? 'page' : undefined} onClick={() => setView(v.id)}>
                {v.label}
              </button>
            </li>
          ))}
        </ul>
        <button className="theme-toggle" onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}>
          {theme === 'light' ? 'Dark theme' : 'Light theme'}
        </button>
      </nav>
      <main className="content" id="main">
        <ErrorBanner />
        <ViewBoundary name={current.label}>
          <Suspense fallback={null}>
            <Current />
          </Suspense>
        </ViewBoundary>
      </main>
      <EngineStatusBar />
    </div>
  );
}
