// Web permission requests from the renderer: only what a card game needs, only for the app's own origin.
import { originOf } from './navigation';

const ALLOWED = new Set(['fullscreen', 'clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string, appOrigin: string): boolean {
  return ALLOWED.has(permission) && originOf(requestingUrl) === appOrigin;
}
