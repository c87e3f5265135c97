import { createRoot } from 'react-dom/client';
import { Root } from './Root';
import { initApiBase } from './lib/platform';
import { registerServiceWorker } from './lib/sw';
import { initDesktopServer } from './servers/desktop-servers';
import './styles.css';
// issue #31: the player's options (four-colour deck, large cards, reduced motion) on every page, replays included
import './lib/options';
import './table/options.css';

// The API base comes from the desktop bridge when there is one (same origin on the web), before any request.
initApiBase();
initDesktopServer();
createRoot(document.getElementById('root')!).render(<Root />);
registerServiceWorker();
