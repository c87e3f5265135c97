import { createRoot } from 'react-dom/client';
import { Root } from './Root';
import { initApiBase } from './lib/platform';
import { registerServiceWorker } from './lib/sw';
import './styles.css';

// The API base comes from the desktop bridge when there is one (same origin on the web), before any request.
initApiBase();
createRoot(document.getElementById('root')!).render(<Root />);
registerServiceWorker();
