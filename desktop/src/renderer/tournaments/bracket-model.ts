/**
 * Issue #27: the tournament page's model — pure functions from the server's `TournamentView` (and `TournamentSummary`)
 * to what the page draws: bracket columns (one per round, future rounds as placeholders), each match's rows
 * (entrant, players, score, place, advanced), standings with prizes, the viewer's match, and labels. No React here.
 */
import { DEFAULT_PRIZE_SPLIT, formatCoins, matchesInRound, roundCount } from '@spades/common';
import type {
  Entrant,
  TournamentListStatus,
  TournamentMatchView,
  TournamentStatus,
  TournamentSummary,
  TournamentView,
} from '@spades/common';

/** The lobby's lists (common's, shared with the server's `GET /api/tournaments?status=`). */
export type { TournamentListStatus };

export const LIST_STATUSES: readonly { key: TournamentListStatus; label: string }[] = [
  { key: 'open', label: 'Open' },
  { key: 'running', label: 'Running' },
  { key: 'finished', label: 'Finished' },
];

/** The default prize split per mode (common's; shown in the create dialogs, the server applies it). */
export const DEFAULT_SPLIT = DEFAULT_PRIZE_SPLIT;

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/** "PARTNERS · 8 players" */
export function formatLabel(t: Pick<TournamentSummary, 'mode' | 'size'>): string {
  return `${t.mode} · ${t.size} players`;
}

export function statusLabel(s: TournamentStatus): string {
  return s === 'REGISTERING'
    ? 'REGISTERING'
    : s === 'RUNNING'
      ? 'RUNNING'
      : s === 'FINISHED'
        ? 'FINISHED'
        : 'CANCELLED';
}

export function statusTone(s: TournamentStatus): 'neutral' | 'amber' | 'green' | 'red' {
  return s === 'REGISTERING' ? 'neutral' : s === 'RUNNING' ? 'amber' : s === 'FINISHED' ? 'green' : 'red';
}

/** Each place's share of the pool: [{ place: 1, percent: 65, amount: 1170 }, …] (amounts floored, as the server). */
export function prizeLines(
  t: Pick<TournamentSummary, 'prizePool' | 'prizeSplit' | 'buyIn'>,
): { place: number; percent: number; amount: number }[] {
  if (t.buyIn === 0) return [];
  return t.prizeSplit.map((percent, i) => ({
    place: i + 1,
    percent,
    amount: Math.floor((t.prizePool * percent) / 100),
  }));
}

/** "1st 65% · 2nd 35%" */
export function splitLabel(split: number[]): string {
  return split.map((p, i) => `${ordinal(i + 1)} ${p}%`).join(' · ');
}

export function buyInLabel(buyIn: number): string {
  return buyIn === 0 ? 'Free' : formatCoins(buyIn);
}

/** The round's name: Final / Semi-finals / Quarter-finals (PARTNERS), Final table / Round n (SOLO). */
export function roundTitle(mode: 'PARTNERS' | 'SOLO', round: number, roundCount: number): string {
  const fromEnd = roundCount - round;
  if (mode === 'SOLO') return fromEnd === 0 ? 'Final table' : `Round ${round}`;
  if (fromEnd === 0) return 'Final';
  if (fromEnd === 1) return 'Semi-finals';
  if (fromEnd === 2) return 'Quarter-finals';
  return `Round ${round}`;
}

/** Rounds of a knock-out (both modes): 8 players → 2, 16 → 3. */
export function roundsOf(size: 8 | 16): number {
  return roundCount({ size });
}

export function entrantName(e: Entrant | undefined): string {
  if (!e) return 'TBD';
  return e.players.map((p) => p.username).join(' & ');
}

export interface BracketRow {
  entrantId: string;
  name: string;
  seed: number | null;
  score: number | null;
  place: number | null;
  advanced: boolean;
  /** Eliminated in this match (it is DONE and the entrant did not go on). */
  out: boolean;
  mine: boolean;
}

export interface BracketMatch {
  id: string;
  /** "Table 1" */
  label: string;
  status: TournamentMatchView['status'] | 'UPCOMING';
  gameId: string | null;
  seatDeadline: number | null;
  walkover: boolean;
  /** Decided by staff closing its table (the score at that moment): no replay, a "Closed by staff" badge. */
  closed: boolean;
  rows: BracketRow[];
  /** A match of a round not created yet: empty boxes. */
  placeholder: boolean;
  mine: boolean;
}

export interface BracketColumn {
  round: number;
  title: string;
  current: boolean;
  matches: BracketMatch[];
}

/** The entrant (team or player) the user belongs to, if any. */
export function entrantOf(view: Pick<TournamentView, 'entrants'>, userId: string | null | undefined): Entrant | null {
  if (!userId) return null;
  return view.entrants.find((e) => e.players.some((p) => p.userId === userId)) ?? null;
}

function rowsOf(view: TournamentView, m: TournamentMatchView, mineId: string | null): BracketRow[] {
  const byId = new Map(view.entrants.map((e) => [e.id, e]));
  const rows = m.entrantIds.map((id): BracketRow => {
    const e = byId.get(id);
    const advanced = m.advanced.includes(id);
    return {
      entrantId: id,
      name: entrantName(e),
      seed: e?.seed ?? null,
      score: m.scores?.[id] ?? null,
      place: m.places?.[id] ?? null,
      advanced,
      out: m.status === 'DONE' && !advanced,
      mine: id === mineId,
    };
  });
  // A finished SOLO table lists its players by place; otherwise the seating order.
  if (m.status === 'DONE' && m.places) rows.sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  return rows;
}

/** One column per round (1..roundCount); rounds the server has not created yet are placeholder boxes. */
export function bracketColumns(view: TournamentView, viewerId: string | null | undefined): BracketColumn[] {
  const mine = entrantOf(view, viewerId)?.id ?? null;
  const total = Math.max(view.roundCount, view.rounds.length);
  const current = view.status === 'RUNNING' ? (view.round ?? view.rounds.length) : null;
  const cols: BracketColumn[] = [];
  for (let r = 1; r <= total; r++) {
    const round = view.rounds.find((x) => x.number === r);
    const title = roundTitle(view.mode, r, total);
    if (round) {
      cols.push({
        round: r,
        title,
        current: current === r,
        matches: round.matches.map((m, i) => {
          const rows = rowsOf(view, m, mine);
          return {
            id: m.id,
            label: `Table ${i + 1}`,
            status: m.status,
            gameId: m.gameId,
            seatDeadline: m.seatDeadline,
            walkover: m.walkover,
            closed: m.closed === true,
            rows,
            placeholder: false,
            mine: rows.some((x) => x.mine),
          };
        }),
      });
    } else {
      const n = matchesInRound(view.size, r);
      cols.push({
        round: r,
        title,
        current: false,
        matches: Array.from({ length: n }, (_, i) => ({
          id: `r${r}m${i}`,
          label: `Table ${i + 1}`,
          status: 'UPCOMING' as const,
          gameId: null,
          seatDeadline: null,
          walkover: false,
          closed: false,
          rows: [],
          placeholder: true,
          mine: false,
        })),
      });
    }
  }
  return cols;
}

export interface StandingRow {
  place: number;
  entrantId: string;
  name: string;
  prize: number;
  mine: boolean;
}

/** Final standings with each entrant's prize (the sum of its players' payouts), best first. */
export function standingRows(view: TournamentView, viewerId: string | null | undefined): StandingRow[] {
  const byId = new Map(view.entrants.map((e) => [e.id, e]));
  const payout = new Map<string, number>();
  for (const p of view.payouts) payout.set(p.userId, (payout.get(p.userId) ?? 0) + p.amount);
  return [...view.standings]
    .sort((a, b) => a.place - b.place)
    .map((s) => {
      const e = byId.get(s.entrantId);
      return {
        place: s.place,
        entrantId: s.entrantId,
        name: entrantName(e),
        prize: (e?.players ?? []).reduce((sum, p) => sum + (payout.get(p.userId) ?? 0), 0),
        mine: !!viewerId && !!e?.players.some((p) => p.userId === viewerId),
      };
    });
}

export interface MyMatch {
  matchId: string;
  round: number;
  roundTitle: string;
  gameId: string | null;
  seatDeadline: number | null;
  status: TournamentMatchView['status'];
  opponents: string[];
}

/** The viewer's current or next match (not DONE) in the live state, or null (not in, eliminated, finished). */
export function myMatch(view: TournamentView, viewerId: string | null | undefined): MyMatch | null {
  const mine = entrantOf(view, viewerId);
  if (!mine || view.status !== 'RUNNING') return null;
  const byId = new Map(view.entrants.map((e) => [e.id, e]));
  for (const round of [...view.rounds].sort((a, b) => b.number - a.number)) {
    const m = round.matches.find((x) => x.entrantIds.includes(mine.id));
    if (!m) continue;
    if (m.status === 'DONE') return null;
    return {
      matchId: m.id,
      round: round.number,
      roundTitle: roundTitle(view.mode, round.number, view.roundCount),
      gameId: m.gameId,
      seatDeadline: m.seatDeadline,
      status: m.status,
      opponents: m.entrantIds.filter((id) => id !== mine.id).map((id) => entrantName(byId.get(id))),
    };
  }
  return null;
}

/** Whether the viewer was knocked out (in the tournament, a DONE match of theirs did not send them on). */
export function isEliminated(view: TournamentView, viewerId: string | null | undefined): boolean {
  const mine = entrantOf(view, viewerId);
  if (!mine) return false;
  return view.rounds.some((r) =>
    r.matches.some((m) => m.status === 'DONE' && m.entrantIds.includes(mine.id) && !m.advanced.includes(mine.id)),
  );
}

/** "1:05" for a deadline `ms` away (never negative). */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A time for a card: "Today 20:00", "Sat 28 Nov 20:00". */
export function startLabel(at: number, now = Date.now()): string {
  const d = new Date(at);
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (new Date(now).toDateString() === d.toDateString()) return `Today ${time}`;
  return `${d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

/** The registered list as teams: partners registered together side by side, singles alone. */
export function registrationGroups(view: Pick<TournamentView, 'registrations'>): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const r of view.registrations) {
    if (seen.has(r.userId)) continue;
    seen.add(r.userId);
    const partner = r.partnerId ? view.registrations.find((x) => x.userId === r.partnerId) : undefined;
    if (partner) {
      seen.add(partner.userId);
      out.push([r.username, partner.username]);
    } else out.push([r.username]);
  }
  return out;
}
