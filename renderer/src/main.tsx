import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/client';
import { useApp } from './stores/app-store';
import { startPersistence } from './stores/persisted-state';
import { VIEW_IDS } from './views';

const root = createRoot(document.getElementById('root')!);
root.render(<App />);
// Before connecting, so the saved view, theme and selections are read as soon as the API is there.
startPersistence(VIEW_IDS);
void useApp.getState().connect(createApi());
