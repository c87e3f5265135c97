import { sanctionEndText, type Sanction, type SanctionRequest } from '@spades/common';

/** Console date/time texts: UTC, like the messages players get ("2026-12-01 18:00 UTC"). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : sanctionEndText(d);
}

/** "3 min ago", "2 h ago", "5 d ago" (for lists); the exact time goes in a title. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** A decimal-string coin amount with thousands separators ("-1,250", "5,000,000"). */
export function coinsText(amount: string | number): string {
  const s = String(amount);
  const neg = s.startsWith('-');
  const digits = neg || s.startsWith('+') ? s.slice(1) : s;
  return `${neg ? '−' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** Durations offered for mutes and bans (minutes; null = for good). */
export const DURATIONS: { label: string; minutes: number | null }[] = [
  { label: '15 minutes', minutes: 15 },
  { label: '1 hour', minutes: 60 },
  { label: '24 hours', minutes: 24 * 60 },
  { label: '7 days', minutes: 7 * 24 * 60 },
  { label: '30 days', minutes: 30 * 24 * 60 },
  { label: 'For good', minutes: null },
];

export function isActive(s: Sanction, now = Date.now()): boolean {
  return (
    !s.liftedAt && (s.kind === 'mute' || s.kind === 'ban') && (s.endsAt === null || new Date(s.endsAt).getTime() > now)
  );
}

export function sanctionLabel(s: Pick<Sanction, 'kind' | 'scope' | 'endsAt'>): string {
  switch (s.kind) {
    case 'warn':
      return 'Warning';
    case 'rename':
      return 'Forced rename';
    case 'mute':
      return `${s.scope === 'lobby' ? 'Lobby mute' : 'Mute'} ${s.endsAt ? `until ${when(s.endsAt)}` : s.scope === 'lobby' ? 'until reviewed' : 'for good'}`;
    case 'ban':
      return `Ban ${s.endsAt ? `until ${when(s.endsAt)}` : 'for good'}`;
  }
}

/** "a 24 hours ban", "a mute for good", "a warning", "a rename to Newname" (what a report was resolved with). */
export function requestLabel(r: SanctionRequest): string {
  const span = (m: number | null) =>
    m === null ? 'for good' : `for ${DURATIONS.find((d) => d.minutes === m)?.label ?? `${m} minutes`}`;
  switch (r.kind) {
    case 'warn':
      return 'a warning';
    case 'mute':
      return `a mute ${span(r.minutes)}`;
    case 'ban':
      return `a ban ${span(r.minutes)}`;
    case 'rename':
      return `a rename to ${r.newUsername}`;
  }
}
