import type { Announcement } from '@spades/common';
import { useSocketEvent } from '../socket/socket';
import { setAnnouncement, usePublicSettings } from './server-settings';

/**
 * The host's announcement banner (issue #25), live: GET /api/settings/public at first, then every `announcement`
 * socket event (sent to every connected client when the banner changes, and on connect while one is up). Use inside
 * the SocketProvider; null when there is none.
 */
export function useAnnouncement(): Announcement | null {
  const settings = usePublicSettings();
  useSocketEvent('announcement', setAnnouncement);
  return settings?.announcement ?? null;
}
