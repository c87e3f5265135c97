import { useEffect, useState } from 'react';
import type { Announcement, PublicServerSettings } from '@spades/common';
import { api } from './api';

/**
 * The host's public settings (issue #25, GET /api/settings/public): registration mode, sign-ins offered, table
 * presets offered in Create Game, the announcement banner, the server's name. Fetched once per page load and shared
 * by every component (no query client needed: the sign-in pages use it too); `refreshPublicSettings()` re-reads,
 * `setAnnouncement()` applies a pushed `announcement` socket event. Null until known or when the server does not
 * answer (then nothing is restricted in the UI: the server still refuses what it does not offer).
 */
let current: PublicServerSettings | null = null;
let pending: Promise<void> | null = null;
const listeners = new Set<(s: PublicServerSettings | null) => void>();

function publish(next: PublicServerSettings | null): void {
  current = next;
  for (const l of listeners) l(next);
}

export function refreshPublicSettings(): Promise<void> {
  pending ??= api
    .get<PublicServerSettings>('/api/settings/public')
    .then(
      (s) => publish(s && typeof s === 'object' ? s : null),
      () => undefined,
    )
    .finally(() => (pending = null));
  return pending;
}

/** A pushed banner change (socket `announcement`): applied without a round trip. */
export function setAnnouncement(a: Announcement | null): void {
  if (current) publish({ ...current, announcement: a });
  else void refreshPublicSettings();
}

export function usePublicSettings(): PublicServerSettings | null {
  const [s, setS] = useState<PublicServerSettings | null>(current);
  useEffect(() => {
    listeners.add(setS);
    if (!current) void refreshPublicSettings();
    else setS(current);
    return () => void listeners.delete(setS);
  }, []);
  return s;
}

/** Tests: forget what was fetched. */
export function resetPublicSettingsForTests(s: PublicServerSettings | null = null): void {
  current = s;
  pending = null;
}
