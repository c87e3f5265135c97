/**
 * The table state machine (pure, no I/O): a `TableRecord` is the whole persisted state of one table
 * (seats, spectators, timers, the rules-engine `GameState`, chat, settlement status). Commands mutate a
 * draft copy and return the notes (events to emit) they produce; the actor persists the draft and emits.
 *
 * Every rule of the game is delegated to `@spades/common` (`apply`, `viewFor`, bots); this file only
 * decides who may do what at the table and when the server acts by itself.
 */
import {
  apply,
  CompletedTrick,
  createGame,
  engineErrorMessage,
  GameAction,
  GameSettings,
  normalizeCard,
  Seat,
  viewFor,
} from '@spades/common';
import { randomBytes, randomInt } from 'node:crypto';
import { GamesConfig } from './games.config';
import { pickBot } from './bots';
import { invitationFor, isPrivate, reservedSeats } from './visibility';
import { ACCESS_ERRORS } from './table.access';

export * from './table.record';
import {
  type Participant,
  type SeatOccupant,
  type ChatMessage,
  type PendingInvitation,
  type TableRecord,
  SEAT_RESERVED,
  invitationPayload,
  TableError,
  type ActorKind,
  type Effects,
  newEffects,
  SEATS,
  isHuman,
  humans,
  hostId,
  seatOf,
  isSpectator,
  inGame,
  newInviteToken,
} from './table.record';
export function newTable(id: string, settings: GameSettings, creator: Participant, now: number, opts: { private?: boolean } = {}): TableRecord {
  return {
    id,
    createdAt: now,
    status: 'WAITING',
    settings,
    seats: [{ ...creator, kind: 'human' }, null, null, null],
    spectators: [],
    rated: false,
    participants: [],
    gameNumber: 1,
    engine: createGame(settings),
    flow: null,
    replacements: [null, null, null, null],
    timeouts: [0, 0, 0, 0],
    announced: [],
    departed: [],
    chat: [],
    handAcks: [],
    playAgain: [],
    trickPending: false,
    settlement: 'none',
    payouts: null,
    closedReason: null,
    finishedAt: null,
    private: opts.private === true,
    inviteToken: opts.private === true ? newInviteToken() : null,
    invitations: [],
    admitted: opts.private === true ? [creator.userId] : [],
  };
}

/**
 * A draft of a record for a command to change, copied only as deep as a command writes: the record itself and its
 * arrays (a command pushes to `chat`, sets `seats[i]`, `timeouts[i]`…). Everything below is shared with the committed
 * record and never changed in place — a command replaces a seat occupant, a chat message, an invitation, `flow` or
 * `settings` whole, and the rules-engine state is immutable (common's `apply` returns a new state; the engine holds
 * the hands and the history, most of a record's size). Under tests every committed record is frozen
 * (`freezeCommitted`), so a command that breaks this rule fails there instead of changing a committed table.
 */
export function draftOf(rec: TableRecord): TableRecord {
  const draft = { ...rec } as Record<string, unknown>;
  for (const k in draft) {
    const v = draft[k];
    if (Array.isArray(v)) draft[k] = v.slice();
  }
  return draft as unknown as TableRecord;
}

const FREEZE_COMMITTED = process.env.NODE_ENV === 'test';

/** Tests only (NODE_ENV=test): freezes a committed record deeply, engine aside (common returns new states). */
export function freezeCommitted(rec: TableRecord): void {
  if (!FREEZE_COMMITTED) return;
  const deep = (v: unknown): void => {
    if (!v || typeof v !== 'object' || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const x of Object.values(v)) deep(x);
  };
  for (const [k, v] of Object.entries(rec)) if (k !== 'engine') deep(v);
  Object.freeze(rec);
}

export function newBot(seat: number): SeatOccupant {
  return { kind: 'bot', userId: `bot_${seat}_${randomBytes(4).toString('hex')}`, username: `Bot ${seat + 1}`, avatar: null };
}

/** The table logic; `now` and the config are injected so tests and restarts are deterministic. */
export class TableMachine {
  constructor(
    readonly cfg: GamesConfig,
    readonly now: () => number = Date.now,
  ) {}

  // ------------------------------------------------------------------ chat / presence

  postSystem(rec: TableRecord, fx: Effects, text: string): void {
    this.postChat(rec, fx, { userId: 'system', userName: 'System' }, text);
  }

  postChat(rec: TableRecord, fx: Effects, from: { userId: string; userName: string }, text: string): ChatMessage {
    const message: ChatMessage = {
      id: randomBytes(8).toString('hex'),
      gameId: rec.id,
      userId: from.userId,
      userName: from.userName,
      message: text,
      timestamp: this.now(),
      isGameMessage: true,
    };
    rec.chat.push(message);
    if (rec.chat.length > this.cfg.chatHistory) rec.chat.splice(0, rec.chat.length - this.cfg.chatHistory);
    fx.notes.push({ type: 'chat_message', message });
    return message;
  }

  announce(rec: TableRecord, fx: Effects, user: Participant): void {
    if (rec.announced.includes(user.userId)) return;
    rec.announced.push(user.userId);
    this.postSystem(rec, fx, `${user.username} joined the game.`);
  }

  /** '{name} is watching.' once per game for a spectator (a spectator does not join the game). */
  /** Posts "… is watching." once per user and table; false when it was already posted. */
  announceWatching(rec: TableRecord, fx: Effects, user: Participant): boolean {
    const key = `watch:${user.userId}`;
    if (rec.announced.includes(key) || rec.announced.includes(user.userId)) return false;
    rec.announced.push(key);
    this.postSystem(rec, fx, `${user.username} is watching.`);
    return true;
  }

  // ------------------------------------------------------------------ seating

  /** Seats `user` (first free seat when `seat` is undefined). Returns the seat. */
  join(rec: TableRecord, fx: Effects, user: Participant, seat: number | undefined): Seat {
    const current = seatOf(rec, user.userId);
    if (current !== null) {
      if (seat === undefined || seat === current) return current;
      throw new TableError('You are already seated at this table');
    }
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (rec.status === 'COMPLETED') throw new TableError('This game is over');
    let target: number;
    const reserved = reservedSeats(rec, this.now());
    const heldForOther = (i: number) => reserved.has(i) && reserved.get(i) !== user.userId;
    if (seat === undefined || seat === null) {
      const mine = [...reserved].find(([, u]) => u === user.userId)?.[0];
      target =
        mine !== undefined
          ? mine
          : rec.status === 'WAITING'
            ? rec.seats.findIndex((s, i) => s === null && !heldForOther(i))
            : rec.replacements.findIndex((r, i) => r !== null && rec.seats[i] === null);
      if (target < 0) throw new TableError('No free seat at this table');
    } else {
      if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new TableError('Invalid seat');
      target = seat;
      if (rec.seats[target] !== null) throw new TableError('That seat is taken');
      if (heldForOther(target)) throw new TableError(SEAT_RESERVED);
      if (rec.status !== 'WAITING' && rec.replacements[target] === null) throw new TableError('That seat is not open');
    }
    rec.seats[target] = { ...user, kind: 'human' };
    rec.spectators = rec.spectators.filter((s) => s.userId !== user.userId);
    rec.departed = (rec.departed ?? []).filter((u) => u !== user.userId);
    this.admit(rec, user.userId);
    rec.replacements[target] = null;
    rec.timeouts[target] = 0;
    fx.lobby = true;
    this.announce(rec, fx, user);
    return target as Seat;
  }

  /**
   * What a socket `join_game` may do for a user: `member` (seated or watching: only re-subscribe, never
   * change seating), `watch` (left this table or lost the seat: watch, an explicit join is needed to sit),
   * or `sit` (a newcomer: take a seat like an explicit join, else watch).
   */
  socketJoinMode(rec: TableRecord, userId: string): 'member' | 'watch' | 'sit' {
    if (seatOf(rec, userId) !== null || isSpectator(rec, userId)) return 'member';
    if ((rec.departed ?? []).includes(userId)) return 'watch';
    return 'sit';
  }

  private markDeparted(rec: TableRecord, userId: string): void {
    rec.departed = [...(rec.departed ?? []).filter((u) => u !== userId), userId];
  }

  /**
   * `user` watches the table. Returns false when nothing changed (already watching, admitted and announced: e.g. a
   * spectator's socket coming back after a reconnect), so the caller stores and sends nothing.
   */
  spectate(rec: TableRecord, fx: Effects, user: Participant): boolean {
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (seatOf(rec, user.userId) !== null) throw new TableError('You are seated at this table');
    const watching = rec.spectators.some((s) => s.userId === user.userId);
    if (!watching) rec.spectators.push(user);
    const admit = isPrivate(rec) && !(rec.admitted ?? []).includes(user.userId);
    if (admit) rec.admitted = [...(rec.admitted ?? []), user.userId];
    const announced = this.announceWatching(rec, fx, user);
    return !watching || admit || announced;
  }

  /**
   * A human leaves (seat or spectators); the game chat says so. In a running game the seat is vacated with a
   * replacement countdown (the bot logic plays it meanwhile, then a bot takes it). The table closes only when
   * nobody is left to play or watch (see closeIfAbandoned).
   */
  leave(rec: TableRecord, fx: Effects, userId: string, why = ''): void {
    const seat = seatOf(rec, userId);
    const watcher = rec.spectators.find((s) => s.userId === userId);
    if (seat === null && !watcher) throw new TableError('You are not at this table');
    rec.spectators = rec.spectators.filter((s) => s.userId !== userId);
    fx.removedUsers.push(userId);
    this.markDeparted(rec, userId);
    if (seat === null) {
      fx.lobby = true; // spectator count
      this.postSystem(rec, fx, `${watcher!.username} stopped watching.`);
      this.closeIfAbandoned(rec, fx, 'Nobody is left at the table');
      return;
    }
    const name = (rec.seats[seat] as SeatOccupant).username;
    fx.lobby = true;
    rec.playAgain = rec.playAgain.filter((u) => u !== userId);
    rec.handAcks = rec.handAcks.filter((u) => u !== userId);
    if (inGame(rec)) {
      this.vacate(rec, fx, seat);
      this.postSystem(rec, fx, `${name} left the game${why}. A bot plays seat ${seat + 1}.`);
    } else {
      rec.seats[seat] = null;
      this.postSystem(rec, fx, `${name} left the table${why}.`);
    }
    this.closeIfAbandoned(rec, fx, 'All players left the table');
  }

  /** Frees a seat in a running game and starts the replacement countdown (a bot fills it at expiry). */
  vacate(rec: TableRecord, fx: Effects, seat: Seat): void {
    const occ = rec.seats[seat];
    if (rec.rated && isHuman(occ) && rec.participants.some((p) => p.userId === occ.userId)) {
      rec.forfeited = [...(rec.forfeited ?? []).filter((u) => u !== occ.userId), occ.userId];
    }
    rec.seats[seat] = null;
    rec.timeouts[seat] = 0;
    const expiresAt = this.now() + this.cfg.seatReplacementMs;
    rec.replacements[seat] = expiresAt;
    fx.notes.push({ type: 'seat_replacement_started', seatIndex: seat, expiresAt });
  }

  /**
   * Closes the table when nobody is left for it: no seated human and, while a game runs (or its result shows),
   * no spectator either: spectators keep watching the bots play. A WAITING table without a seated human has
   * nobody to start it: it closes, and the spectators are told why (`game_closed {reason}`).
   */
  closeIfAbandoned(rec: TableRecord, fx: Effects, reason: string): void {
    if (rec.status === 'CLOSED' || humans(rec).length > 0) return;
    const running = inGame(rec) || rec.status === 'COMPLETED';
    if (running && rec.spectators.length > 0) return;
    this.close(rec, fx, reason);
  }

  close(rec: TableRecord, fx: Effects, reason: string): void {
    rec.status = 'CLOSED';
    rec.closedReason = reason;
    rec.flow = null;
    rec.replacements = [null, null, null, null];
    rec.finishedAt = rec.finishedAt ?? this.now();
    // invitations expire with the table
    for (const i of rec.invitations ?? []) {
      fx.direct.push({ userId: i.userId, event: 'game_invitation_cancelled', payload: { gameId: rec.id, reason } });
    }
    rec.invitations = [];
    // A rated game abandoned by every human: the escrow goes to the house (leavers forfeit).
    if (rec.rated && rec.settlement === 'none') rec.settlement = 'pending';
    fx.lobby = true;
    fx.notes.push({ type: 'game_closed', reason });
  }

  // ------------------------------------------------------------------ invitations (issue #12)

  /** Joined with an invitation: the invitation is used up; a private table lets the user come back. */
  private admit(rec: TableRecord, userId: string): void {
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    if (isPrivate(rec) && !(rec.admitted ?? []).includes(userId)) rec.admitted = [...(rec.admitted ?? []), userId];
  }

  /**
   * A seated human invites another user (in-app invitation, `game_invitation` to the invitee). With `reserve`
   * at a WAITING table, a free seat is held for the invitee for INVITE_RESERVATION_MS. A new invitation of the
   * same user replaces the old one.
   */
  invite(rec: TableRecord, fx: Effects, from: Participant, to: Participant, reserve: boolean): PendingInvitation {
    if (seatOf(rec, from.userId) === null) throw new TableError('Only seated players can invite', 403);
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    if (rec.status === 'COMPLETED') throw new TableError('This game is over');
    if (to.userId === from.userId) throw new TableError('You cannot invite yourself');
    if (seatOf(rec, to.userId) !== null) throw new TableError(`${to.username} is already seated at this table`);
    const now = this.now();
    let seat: Seat | null = null;
    if (reserve && rec.status === 'WAITING') {
      const held = reservedSeats(rec, now);
      const mine = invitationFor(rec, to.userId);
      const free = SEATS.filter((i) => rec.seats[i] === null && (!held.has(i) || held.get(i) === to.userId));
      seat = mine?.seat !== null && mine?.seat !== undefined && free.includes(mine.seat) ? mine.seat : (free[0] ?? null);
      if (seat === null) throw new TableError('No free seat to reserve');
    }
    const inv: PendingInvitation = {
      userId: to.userId,
      username: to.username,
      fromId: from.userId,
      fromName: from.username,
      fromAvatar: from.avatar,
      createdAt: now,
      seat,
      reservedUntil: seat === null ? null : now + this.cfg.inviteReservationMs,
    };
    rec.invitations = [...(rec.invitations ?? []).filter((i) => i.userId !== to.userId), inv];
    if (rec.removed?.includes(to.userId)) rec.removed = rec.removed.filter((u) => u !== to.userId);
    fx.direct.push({ userId: to.userId, event: 'game_invitation', payload: invitationPayload(rec, inv) });
    fx.lobby = true;
    this.postSystem(rec, fx, seat === null ? `${from.username} invited ${to.username}.` : `${from.username} invited ${to.username} and holds seat ${seat + 1}.`);
    return inv;
  }

  /**
   * Host only, before the start (issue #24): `userId` loses their seat or spectator place, pending invitation and
   * admission, and cannot come back with the invite link until the host invites them again in the app.
   */
  removePlayer(rec: TableRecord, fx: Effects, hostUserId: string, userId: string): void {
    if (hostId(rec) !== hostUserId || seatOf(rec, hostUserId) === null) throw new TableError('Only the host can remove a player', 403);
    if (rec.status !== 'WAITING') throw new TableError('Players can be removed only before the game starts');
    if (userId === hostUserId) throw new TableError('You cannot remove yourself: leave the table instead');
    const seat = seatOf(rec, userId);
    const watcher = rec.spectators.find((s) => s.userId === userId);
    const inv = invitationFor(rec, userId);
    const admitted = (rec.admitted ?? []).includes(userId);
    if (seat === null && !watcher && !inv && !admitted) throw new TableError('This player is not at this table', 404);
    const name = seat !== null ? (rec.seats[seat] as SeatOccupant).username : (watcher?.username ?? inv?.username ?? 'A player');
    if (seat !== null) rec.seats[seat] = null;
    rec.spectators = rec.spectators.filter((s) => s.userId !== userId);
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    rec.admitted = (rec.admitted ?? []).filter((u) => u !== userId);
    rec.removed = [...(rec.removed ?? []).filter((u) => u !== userId), userId];
    rec.playAgain = rec.playAgain.filter((u) => u !== userId);
    rec.handAcks = rec.handAcks.filter((u) => u !== userId);
    if (inv) fx.direct.push({ userId, event: 'game_invitation_cancelled', payload: { gameId: rec.id, reason: ACCESS_ERRORS.REMOVED } });
    fx.direct.push({ userId, event: 'removed_from_table', payload: { gameId: rec.id, reason: ACCESS_ERRORS.REMOVED } });
    if (seat !== null || watcher) fx.removedUsers.push(userId);
    fx.lobby = true;
    this.postSystem(rec, fx, `${name} was removed from the table by the host.`);
  }

  /** The invitee declines: the invitation (and a held seat) is dropped; the inviter is told. */
  decline(rec: TableRecord, fx: Effects, userId: string): void {
    const inv = invitationFor(rec, userId);
    if (!inv) throw new TableError('No invitation to this table', 404);
    rec.invitations = (rec.invitations ?? []).filter((i) => i.userId !== userId);
    fx.direct.push({ userId: inv.fromId, event: 'invitation_declined', payload: { gameId: rec.id, userId, username: inv.username } });
    fx.lobby = true;
    this.postSystem(rec, fx, `${inv.username} declined the invitation.`);
  }

  /** Host only: a new invite token (the previous link stops working) or none (revoke). */
  setInviteToken(rec: TableRecord, requesterId: string, token: string | null): void {
    if (hostId(rec) !== requesterId) throw new TableError('Only the host can manage the invite link', 403);
    if (rec.status === 'CLOSED') throw new TableError('This game is closed', 404);
    rec.inviteToken = token;
  }

  // ------------------------------------------------------------------ bots

  /**
   * Bot invite/removal. WAITING: the host only. Running game (spec §5): the human seated opposite the seat,
   * or the host when the opposite seat holds no human.
   */
  private checkBotAuthority(rec: TableRecord, requesterId: string, seat: number, midgame: boolean): void {
    if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new TableError('Invalid seat');
    if (seatOf(rec, requesterId) === null) throw new TableError('Only seated players can do that', 403);
    if (!midgame) {
      if (rec.status !== 'WAITING') throw new TableError('The game has already started');
      if (hostId(rec) !== requesterId) throw new TableError('Only the host can do that', 403);
      return;
    }
    if (!inGame(rec)) throw new TableError('The game is not in progress');
    const opposite = rec.seats[(seat + 2) % 4];
    const allowed = isHuman(opposite) ? opposite.userId : hostId(rec);
    if (allowed !== requesterId) {
      throw new TableError(
        isHuman(opposite) ? 'Only the player opposite that seat can do that' : 'Only the host can do that',
        403,
      );
    }
  }

  inviteBot(rec: TableRecord, fx: Effects, requesterId: string, seat: number, midgame: boolean): void {
    this.checkBotAuthority(rec, requesterId, seat, midgame);
    if (rec.seats[seat] !== null) throw new TableError('That seat is taken');
    if (reservedSeats(rec, this.now()).has(seat)) throw new TableError(SEAT_RESERVED);
    rec.seats[seat] = newBot(seat);
    rec.replacements[seat] = null;
    rec.timeouts[seat] = 0;
    fx.lobby = true;
    this.postSystem(rec, fx, `A bot was invited to seat ${seat + 1}.`);
  }

  removeBot(rec: TableRecord, fx: Effects, requesterId: string, seat: number, midgame: boolean): void {
    this.checkBotAuthority(rec, requesterId, seat, midgame);
    if (rec.seats[seat]?.kind !== 'bot') throw new TableError('There is no bot in that seat');
    fx.lobby = true;
    if (midgame) this.vacate(rec, fx, seat as Seat);
    else rec.seats[seat] = null;
    this.postSystem(rec, fx, `A bot was removed from seat ${seat + 1}.`);
  }

  // ------------------------------------------------------------------ game flow

  /** Host starts: four seats filled. Rated when four humans. Returns whether buy-ins must go to escrow. */
  start(rec: TableRecord, fx: Effects, requesterId: string): void {
    if (rec.status !== 'WAITING') throw new TableError('The game has already started');
    if (hostId(rec) !== requesterId || seatOf(rec, requesterId) === null) throw new TableError('Only the host can start the game', 403);
    if (rec.seats.some((s) => s === null)) throw new TableError('All four seats must be filled to start');
    this.beginGame(rec, fx);
  }

  private beginGame(rec: TableRecord, fx: Effects): void {
    const hs = rec.seats.filter(isHuman);
    rec.rated = hs.length === 4;
    rec.participants = rec.rated
      ? rec.seats.map((s, i) => ({ seat: i as Seat, userId: (s as SeatOccupant).userId, username: (s as SeatOccupant).username }))
      : [];
    rec.settlement = 'none';
    rec.payouts = null;
    rec.forfeited = [];
    rec.engine = createGame(rec.settings);
    rec.timeouts = [0, 0, 0, 0];
    rec.replacements = [null, null, null, null];
    rec.playAgain = [];
    rec.handAcks = [];
    rec.trickPending = false;
    rec.finishedAt = null;
    fx.escrow = rec.rated;
    fx.lobby = true;
    this.deal(rec, fx);
  }

  /** Deals the next hand from a fresh CSPRNG seed. */
  deal(rec: TableRecord, fx: Effects): void {
    const seed = randomBytes(32);
    this.applyEngine(rec, fx, { type: 'deal', seed: seed.toString('hex') }, 'server');
    rec.handAcks = [];
  }

  /**
   * Applies an engine action, records it for the event log (with who made it) and the notes describing the
   * change. Throws TableError on refusal.
   */
  applyEngine(rec: TableRecord, fx: Effects, action: GameAction, by: ActorKind): void {
    const prev = rec.engine;
    const r = apply(prev, action);
    if (!r.ok) throw new TableError(engineErrorMessage(r.error));
    const next = r.state;
    rec.engine = next;
    fx.actions.push({ gameNumber: rec.gameNumber, by, action: structuredClone(action) });
    rec.status = next.phase === 'WAITING' ? 'WAITING' : next.phase;
    if (next.handNumber !== prev.handNumber) {
      fx.notes.push({ type: 'new_hand_started' });
      fx.notes.push({ type: 'bidding_ready' });
      if (next.bids.some((b) => b !== null)) fx.notes.push({ type: 'bidding_update' });
      if (next.phase === 'PLAYING') fx.notes.push({ type: 'bidding_complete' }, { type: 'play_start' });
      return;
    }
    if (prev.phase === 'BIDDING') {
      if (next.bids.some((b, i) => b !== prev.bids[i])) fx.notes.push({ type: 'bidding_update' });
      if (next.phase === 'PLAYING') fx.notes.push({ type: 'bidding_complete' }, { type: 'play_start' });
      return;
    }
    if (prev.phase === 'PLAYING') {
      if (next.trickNumber === prev.trickNumber) {
        fx.notes.push({ type: 'play_update', trick: next.trick });
        return;
      }
      const done = next.lastTrick as CompletedTrick;
      fx.notes.push({ type: 'play_update', trick: done.cards });
      fx.notes.push({ type: 'trick_complete', trick: done, trickNumber: next.trickNumber });
      rec.trickPending = true;
      rec.flow = { kind: 'clearTrick', at: this.now() + this.cfg.trickDisplayMs, key: `clear:${rec.gameNumber}:${next.handNumber}:${next.trickNumber}` };
      if (next.phase === 'COMPLETED') {
        rec.finishedAt = this.now();
        if (rec.rated) rec.settlement = 'pending';
        fx.lobby = true;
      }
    }
  }

  /** Clears a displayed trick; after the last trick shows the hand summary or the game result. */
  clearTrick(rec: TableRecord, fx: Effects): void {
    if (!rec.trickPending) return;
    rec.trickPending = false;
    rec.flow = null;
    fx.notes.push({ type: 'clear_trick' });
    const e = rec.engine;
    if (e.phase === 'HAND_COMPLETED' || e.phase === 'COMPLETED') {
      fx.notes.push({ type: 'hand_completed', record: e.history[e.history.length - 1] });
    }
    if (e.phase === 'COMPLETED') fx.notes.push({ type: 'game_over' });
  }

  /** A seated human's bid or card (or reveal). */
  humanAction(rec: TableRecord, fx: Effects, userId: string, action: 'bid' | 'play' | 'reveal', payload: { bid?: unknown; blind?: unknown; card?: unknown }): void {
    const seat = seatOf(rec, userId);
    if (seat === null) throw new TableError('You are not seated at this table', 403);
    if (action === 'play' && rec.trickPending && rec.engine.phase === 'PLAYING') this.clearTrick(rec, fx);
    let ga: GameAction;
    if (action === 'reveal') ga = { type: 'reveal', seat };
    else if (action === 'bid') {
      const bid = typeof payload.bid === 'string' ? Number(payload.bid) : payload.bid;
      ga = { type: 'bid', seat, bid: bid as number, blind: payload.blind === true };
    } else {
      const card = normalizeCard(payload.card);
      if (!card) throw new TableError(engineErrorMessage('INVALID_CARD'));
      ga = { type: 'play', seat, card };
    }
    this.applyEngine(rec, fx, ga, 'human');
    if (action !== 'reveal') rec.timeouts[seat] = 0;
  }

  /** Plays the current turn with the bot logic (bot seat, vacated seat, or a timed-out human). */
  autoAct(rec: TableRecord, fx: Effects, seat: Seat, planned: GameAction[] = [], by: 'bot' | 'timeout' = 'bot'): void {
    // Actions decided beforehand by the (asynchronous) strong bot pool, if any: applied while legal.
    for (const action of planned) {
      const e = rec.engine;
      if ((e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || e.turn !== seat) return;
      const draft = draftOf(rec);
      const dfx = newEffects(fx.logType);
      try {
        this.applyEngine(draft, dfx, action, by);
      } catch {
        break; // illegal: fall back to the synchronous bot below
      }
      Object.assign(rec, draft);
      fx.notes.push(...dfx.notes);
      fx.actions.push(...dfx.actions);
      fx.lobby ||= dfx.lobby;
      if (action.type !== 'reveal') return;
    }
    const bot = pickBot(this.cfg.botLevel);
    const rng = () => randomInt(0, 2 ** 32) / 2 ** 32;
    for (let i = 0; i < 3; i++) {
      const e = rec.engine;
      if ((e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || e.turn !== seat) return;
      const view = viewFor(e, seat);
      const action = bot.act(view, rng);
      if (!action) throw new Error(`bot ${bot.name} returned no action`);
      this.applyEngine(rec, fx, action, by);
      if (action.type !== 'reveal') return;
    }
  }

  startNewHand(rec: TableRecord, fx: Effects, userId: string): void {
    if (seatOf(rec, userId) === null) throw new TableError('You are not seated at this table', 403);
    if (rec.status !== 'HAND_COMPLETED') return; // idempotent: already dealt (or not yet over)
    if (!rec.handAcks.includes(userId)) rec.handAcks.push(userId);
    if (!rec.trickPending && humans(rec).every((h) => rec.handAcks.includes(h.userId))) this.deal(rec, fx);
  }

  playAgain(rec: TableRecord, fx: Effects, userId: string): void {
    if (seatOf(rec, userId) === null) throw new TableError('You are not seated at this table', 403);
    if (rec.status === 'WAITING') return;
    if (rec.status !== 'COMPLETED') throw new TableError('The game is not over');
    if (!rec.playAgain.includes(userId)) rec.playAgain.push(userId);
    this.maybeRestart(rec, fx, false);
  }

  /**
   * After a game: when every seated human chose Play Again, a new game starts at once if all four seats
   * are filled (bots keep their seats); at the end of the result timer, humans who did not choose leave
   * and the table returns to WAITING (or closes when no human is left).
   */
  private maybeRestart(rec: TableRecord, fx: Effects, expired: boolean): void {
    if (rec.settlement === 'pending') return; // settle first (the actor runs settlement right after commit)
    const hs = humans(rec);
    const ready = hs.filter((h) => rec.playAgain.includes(h.userId));
    if (!expired && ready.length < hs.length) return;
    for (const s of SEATS) {
      const o = rec.seats[s];
      if (isHuman(o) && !rec.playAgain.includes(o.userId)) {
        rec.seats[s] = null;
        fx.removedUsers.push(o.userId);
        this.markDeparted(rec, o.userId);
        this.postSystem(rec, fx, `${o.username} left the table.`);
      }
    }
    if (humans(rec).length === 0) {
      this.close(rec, fx, 'No players left at the table');
      return;
    }
    rec.gameNumber += 1;
    rec.status = 'WAITING';
    // '{name} joined the game.' is posted once per game (spec §7): a new game announces again.
    rec.announced = [];
    rec.engine = createGame(rec.settings);
    rec.flow = null;
    rec.rated = false;
    rec.participants = [];
    rec.settlement = 'none';
    rec.payouts = null;
    rec.playAgain = [];
    rec.trickPending = false;
    fx.lobby = true;
    if (rec.seats.every((s) => s !== null) && humans(rec).length < 4 && !expired) {
      // One human with bots (or some bots): start the new game right away (unrated).
      this.beginGame(rec, fx);
    }
  }

  // ------------------------------------------------------------------ timers

  /** Recomputes the flow timer after a change (kept when the situation is unchanged). */
  scheduleFlow(rec: TableRecord): void {
    const e = rec.engine;
    const now = this.now();
    if (rec.status === 'WAITING' || rec.status === 'CLOSED') {
      rec.flow = null;
      return;
    }
    if (rec.trickPending) return; // clearTrick timer set when the trick completed
    if (e.phase === 'BIDDING' || e.phase === 'PLAYING') {
      const seat = e.turn as Seat;
      const occ = rec.seats[seat];
      const bidsPlaced = e.bids.filter((b) => b !== null).length;
      const key = `act:${rec.gameNumber}:${e.handNumber}:${e.phase}:${bidsPlaced}:${e.trickNumber}:${e.trick.length}:${seat}:${occ?.userId ?? 'vacant'}`;
      if (rec.flow?.key === key) return;
      if (isHuman(occ)) rec.flow = { kind: 'turn', at: now + this.cfg.turnTimeoutMs, key };
      else rec.flow = { kind: 'bot', at: now + this.botDelay(), key };
      return;
    }
    if (e.phase === 'HAND_COMPLETED') {
      const key = `next:${rec.gameNumber}:${e.handNumber}`;
      if (rec.flow?.key !== key) rec.flow = { kind: 'nextHand', at: now + this.cfg.handSummaryMs, key };
      return;
    }
    if (e.phase === 'COMPLETED') {
      const key = `result:${rec.gameNumber}`;
      if (rec.flow?.key !== key) rec.flow = { kind: 'result', at: now + this.cfg.resultMs, key };
    }
  }

  private botDelay(): number {
    const { botDelayMinMs: a, botDelayMaxMs: b } = this.cfg;
    return b > a ? a + randomInt(0, b - a + 1) : a;
  }

  /** Earliest pending deadline (flow or a seat replacement), or null. */
  nextDeadline(rec: TableRecord): number | null {
    const all = [rec.flow?.at ?? null, ...rec.replacements].filter((x): x is number => x !== null);
    return all.length ? Math.min(...all) : null;
  }

  /** Runs what is due at `now`: seat replacements, then the flow timer. Returns the log type or null. */
  /** The seat the due flow timer will play for (bot / timed-out human), or null. */
  dueActor(rec: TableRecord): Seat | null {
    const f = rec.flow;
    const e = rec.engine;
    if (!f || f.at > this.now() || (f.kind !== 'turn' && f.kind !== 'bot')) return null;
    return e.phase === 'BIDDING' || e.phase === 'PLAYING' ? e.turn : null;
  }

  tick(rec: TableRecord, fx: Effects, planned: GameAction[] = []): boolean {
    const now = this.now();
    let changed = false;
    for (const s of SEATS) {
      const at = rec.replacements[s];
      if (at !== null && at <= now) {
        rec.replacements[s] = null;
        if (rec.seats[s] === null && inGame(rec)) {
          rec.seats[s] = newBot(s);
          this.postSystem(rec, fx, `A bot was invited to seat ${s + 1}.`);
          fx.lobby = true;
        }
        fx.logType = 'seat_replacement';
        changed = true;
      }
    }
    const flow = rec.flow;
    if (flow && flow.at <= now) {
      changed = true;
      rec.flow = null;
      const e = rec.engine;
      switch (flow.kind) {
        case 'turn':
        case 'bot': {
          if (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') break;
          const seat = e.turn as Seat;
          const occ = rec.seats[seat];
          const timedOut = flow.kind === 'turn' && isHuman(occ);
          fx.logType = timedOut ? 'timeout' : 'bot';
          this.autoAct(rec, fx, seat, planned, timedOut ? 'timeout' : 'bot');
          if (timedOut) {
            rec.timeouts[seat] += 1;
            const missed = rec.timeouts[seat];
            if (missed >= this.cfg.maxConsecutiveTimeouts) {
              fx.removedUsers.push(occ.userId);
              this.markDeparted(rec, occ.userId);
              this.vacate(rec, fx, seat);
              this.postSystem(rec, fx, `${occ.username} was removed after ${missed} missed turns.`);
              this.closeIfAbandoned(rec, fx, 'All players left the table');
            }
          }
          break;
        }
        case 'clearTrick':
          fx.logType = 'clear_trick';
          this.clearTrick(rec, fx);
          break;
        case 'nextHand':
          fx.logType = 'deal';
          if (e.phase === 'HAND_COMPLETED') this.deal(rec, fx);
          break;
        case 'result':
          fx.logType = 'result';
          if (rec.status === 'COMPLETED') this.maybeRestart(rec, fx, true);
          break;
      }
    }
    return changed;
  }
}
