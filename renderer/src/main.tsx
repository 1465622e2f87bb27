import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './api/client';
import { useApp } from './store/app-store';

const root = createRoot(document.getElementById('root')!);
root.render(<App />);
void useApp.getState().connect(createApi());
