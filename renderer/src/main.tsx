import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/client';
import { useApp } from './store/app-store';
import { startPersistence } from './store/persisted-state';

const root = createRoot(document.getElementById('root')!);
root.render(<App />);
// Before connecting, so the saved view, theme and selections are read as soon as the API is there.
startPersistence();
void useApp.getState().connect(createApi());
