import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, HashRouter, useNavigate } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SessionProvider } from './session/session';
import { SocketProvider } from './socket/socket';
import { ToastProvider } from './components/ui';
import { AppRoutes } from './App';
import { bridge, initApiBase, useHashRouting, type DeepLink } from './lib/platform';
import { registerServiceWorker } from './lib/sw';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 } },
});

/** Desktop deep links (spades://auth/callback?token=…, spades://table/ID) become in-app navigations. */
function DeepLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const off = bridge()?.onDeepLink?.((link: DeepLink) => {
      if (link.kind === 'rules') {
        window.dispatchEvent(new CustomEvent('spades:open-rules'));
        return;
      }
      if (typeof link.path === 'string' && link.path.startsWith('/')) navigate(link.path);
    });
    return () => {
      if (typeof off === 'function') off();
    };
  }, [navigate]);
  return null;
}

/**
 * Router choice: BrowserRouter on the web (real URLs; the backend serves index.html for them) and in the
 * packaged desktop app (served from app://spades with an SPA fallback); HashRouter when the renderer is
 * loaded from file://, where the path is the file's path.
 */
function Root() {
  const Router = useHashRouting() ? HashRouter : BrowserRouter;
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Router>
          <ToastProvider>
            <SessionProvider>
              <SocketProvider>
                <DeepLinks />
                <AppRoutes />
              </SocketProvider>
            </SessionProvider>
          </ToastProvider>
        </Router>
      </QueryClientProvider>
    </StrictMode>
  );
}

initApiBase();
createRoot(document.getElementById('root')!).render(<Root />);
registerServiceWorker();
