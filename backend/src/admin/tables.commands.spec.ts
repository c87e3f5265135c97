/**
 * The console's table command bodies on the real TableMachine (no I/O): a staff removal before the start, of an
 * invitee, mid-game (a bot at once, the rated leaver's forfeit), of the last human (the table closes: a rated
 * game's escrow goes to the house), and closing a stuck table.
 */
import { DEFAULT_SETTINGS } from '@spades/common';
import { loadGamesConfig } from '../games/games.config';
import { Effects, hostId, newEffects, Participant, TableError, TableMachine, TableRecord } from '../games/table';
import { newTable } from '../games/table.new';
import { closeBody, evictBody } from './tables.commands';

const cfg = loadGamesConfig({});
const user = (n: number): Participant => ({ userId: `u${n}`, username: `user${n}`, avatar: null });
const machine = new TableMachine(cfg, () => 1_000_000);

function run<T>(
  rec: TableRecord,
  fn: (draft: TableRecord, fx: Effects) => T,
): { rec: TableRecord; fx: Effects; out: T } {
  const draft = structuredClone(rec);
  const fx = newEffects('test');
  const out = fn(draft, fx);
  machine.scheduleFlow(draft);
  return { rec: draft, fx, out };
}

/** Host u0 and `humans - 1` more humans, bots in the other seats; started when `start`. */
function table(humans: number, start: boolean): TableRecord {
  let rec = newTable('g1', DEFAULT_SETTINGS, user(0), 1_000_000);
  for (let i = 1; i < 4; i++) {
    rec = run(rec, (d, fx) =>
      i < humans ? machine.join(d, fx, user(i), i) : machine.inviteBot(d, fx, 'u0', i, false),
    ).rec;
  }
  return start ? run(rec, (d, fx) => machine.start(d, fx, 'u0')).rec : rec;
}

const chat = (rec: TableRecord) => rec.chat.map((m) => m.message);

describe('evictBody', () => {
  it('before the start: frees the seat, passes the host on, keeps the user out of the invite link, tells them why', () => {
    const { rec, fx, out } = run(table(2, false), (d, f) => evictBody(machine, d, f, 'u0', 'Offensive name'));
    expect(rec.seats[0]).toBeNull();
    expect(hostId(rec)).toBe('u1');
    expect(rec.removed).toContain('u0');
    expect(rec.status).toBe('WAITING');
    expect(fx.direct).toContainEqual({
      userId: 'u0',
      event: 'removed_from_table',
      payload: { gameId: 'g1', reason: 'Offensive name' },
    });
    expect(fx.removedUsers).toContain('u0');
    expect(chat(rec)).toContain('user0 left the table (removed by a moderator).');
    expect(out).toEqual({ gameId: 'g1', seat: 0, botSeated: false, forfeited: false, closed: false });
  });

  it('an invitee only: the invitation is cancelled', () => {
    const invited = run(table(2, false), (d, fx) => machine.invite(d, fx, user(0), user(7), false)).rec;
    const { rec, fx } = run(invited, (d, f) => evictBody(machine, d, f, 'u7', 'Spam'));
    expect(rec.invitations).toEqual([]);
    expect(fx.direct.map((x) => x.event)).toEqual(['game_invitation_cancelled', 'removed_from_table']);
    expect(rec.seats.map((s) => s?.userId ?? null)).toEqual(invited.seats.map((s) => s?.userId ?? null));
  });

  it('mid-game: the leaver rules apply (a rated player forfeits) and a bot takes the seat at once, no countdown', () => {
    const started = table(4, true);
    expect(started.rated).toBe(true);
    const { rec, fx, out } = run(started, (d, f) => evictBody(machine, d, f, 'u2', 'Cheating'));
    expect(rec.seats[2]).toMatchObject({ kind: 'bot' });
    expect(rec.replacements[2]).toBeNull();
    expect(rec.forfeited).toEqual(['u2']);
    expect(fx.notes.some((n) => n.type === 'seat_replacement_started')).toBe(false);
    expect(chat(rec).slice(-2)).toEqual([
      'user2 left the game (removed by a moderator). A bot plays seat 3.',
      'A bot was invited to seat 3.',
    ]);
    expect(rec.status).toBe('BIDDING');
    expect(out).toMatchObject({ seat: 2, botSeated: true, forfeited: true, closed: false });
  });

  it('the last human of a running game: the table closes (nobody is left), with a spectator it plays on', () => {
    const alone = table(1, true);
    const { rec, out } = run(alone, (d, f) => evictBody(machine, d, f, 'u0', 'Ban'));
    expect(rec.status).toBe('CLOSED');
    expect(out).toMatchObject({ closed: true, botSeated: false });

    const watched = run(alone, (d, fx) => machine.spectate(d, fx, user(9))).rec;
    const after = run(watched, (d, f) => evictBody(machine, d, f, 'u0', 'Ban'));
    expect(after.rec.status).toBe('BIDDING');
    expect(after.rec.seats[0]).toMatchObject({ kind: 'bot' });
  });

  it('refuses a user who is not at the table, and a closed table', () => {
    const rec = table(2, false);
    expect(() => run(rec, (d, f) => evictBody(machine, d, f, 'u5', 'x'))).toThrow(
      new TableError('This player is not seated or watching at this table', 404),
    );
    const closed = run(rec, (d, f) => closeBody(machine, d, f)).rec;
    expect(() => run(closed, (d, f) => evictBody(machine, d, f, 'u1', 'x'))).toThrow('This table is already closed');
  });
});

describe('closeBody', () => {
  it('closes a running rated table: everybody is told, the abandoned game is settled (escrow to the house)', () => {
    const { rec, fx, out } = run(table(4, true), (d, f) => closeBody(machine, d, f));
    expect(rec.status).toBe('CLOSED');
    expect(rec.closedReason).toBe('Closed by a moderator');
    expect(rec.settlement).toBe('pending');
    expect(rec.flow).toBeNull();
    expect(fx.notes).toContainEqual({ type: 'game_closed', reason: 'Closed by a moderator' });
    expect(out).toEqual({ gameId: 'g1', statusBefore: 'BIDDING', rated: true, escrowToHouse: true });
    expect(() => run(rec, (d, f) => closeBody(machine, d, f))).toThrow('This table is already closed');
  });

  it('an unrated waiting table closes without a settlement', () => {
    const { rec, out } = run(table(2, false), (d, f) => closeBody(machine, d, f));
    expect(rec.settlement).toBe('none');
    expect(out.escrowToHouse).toBe(false);
  });
});
