/**
 * A player's commands at a table, run on the node that drives it (table-router.ts sends them there): taking a
 * seat (an explicit join, a socket `join_game`, a quick-play table's seats), leaving, the host's removal of a
 * player, bots in and out, the start, bids and cards, claims and the acknowledgements between hands and games.
 * Each is one `LocalTables.command` over the TableMachine's rules; those that answer a view leave it to the router.
 */
import { Injectable } from '@nestjs/common';
import { LobbyQueries } from './lobby-queries';
import { LocalTables, Unchanged } from './local-tables.service';
import { GamesLedger } from './ports';
import { Effects, newBot, Participant, seatOf, TableError, TableRecord } from './table';
import { assertOpenAccess, TableAccess } from './table.access';
import { claimRest } from './table.claim';
import { isMember } from './visibility';

/** A seat of a table formed by quick play (issue #28): a human, or a bot of a given common bot (`basic`, `heuristic`, `strong`). */
export type MatchedSeat = { kind: 'human'; user: Participant } | { kind: 'bot'; level: string; name: string };

@Injectable()
export class TableCommands {
  constructor(
    private readonly local: LocalTables,
    private readonly lobby: LobbyQueries,
    private readonly ledger: GamesLedger,
    private readonly access: TableAccess,
  ) {}

  private get machine() {
    return this.local.machine;
  }

  // ------------------------------------------------------------------ seats

  /**
   * Explicit join. A private table needs an invitation (pending in-app invitation, earlier admission or the
   * current invite token). Coming with an invitation and no seat asked: watch when no seat is free.
   */
  async join(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<void> {
    const viewer = await this.access.viewerFor(await this.local.record(gameId), user.userId, invite);
    await this.local.command(gameId, { type: 'join', actor: user.userId, payload: { seat } }, async (rec, fx) => {
      assertOpenAccess(rec, viewer);
      const invited = invite !== undefined || (rec.invitations ?? []).some((i) => i.userId === user.userId);
      try {
        await this.sit(rec, fx, user, seat);
      } catch (e) {
        if (
          !invited ||
          seat !== undefined ||
          !(e instanceof TableError) ||
          isMember(rec, user.userId) ||
          rec.status === 'CLOSED'
        )
          throw e;
        fx.logType = 'spectate';
        this.machine.spectate(rec, fx, user);
      }
    });
  }

  /**
   * Socket `join_game` at the table. Seated or watching: nothing changes (a reconnecting client re-sends join_game
   * and gets the exact view). Left this table (or lost the seat): watch. Anybody else: sit like an explicit join (the
   * given seat, or a free/open seat), or watch when no seat is free.
   */
  async joinOrWatch(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<void> {
    const rec = await this.local.record(gameId);
    if (this.machine.socketJoinMode(rec, user.userId) === 'member') return;
    const viewer = await this.access.viewerFor(rec, user.userId, invite);
    await this.local.command(
      gameId,
      { type: 'join_game', actor: user.userId, payload: { seat } },
      async (draft, fx) => {
        const mode = this.machine.socketJoinMode(draft, user.userId);
        if (mode === 'member') throw new Unchanged();
        assertOpenAccess(draft, viewer);
        if (mode === 'sit') {
          try {
            fx.logType = 'join';
            await this.sit(draft, fx, user, seat);
            return;
          } catch (e) {
            if (seat !== undefined || !(e instanceof TableError)) throw e;
          }
        }
        fx.logType = 'spectate';
        this.machine.spectate(draft, fx, user);
      },
    );
  }

  /** Issue #28: seats a quick-play table's players and bots and starts it; `fast`: half of TURN_TIMEOUT_MS per turn (at least 5 s). */
  seatMatched(
    gameId: string,
    hostUserId: string,
    seats: MatchedSeat[],
    fast = false,
  ): Promise<{ gameId: string; rated: boolean }> {
    return this.local.command(gameId, { type: 'quickplay_seat', actor: hostUserId }, async (rec, fx) => {
      for (let i = 1; i < 4; i++) {
        const s = seats[i]!;
        if (s.kind === 'human') await this.sit(rec, fx, s.user, i);
        else {
          if (rec.seats[i] !== null) throw new TableError('That seat is taken');
          rec.seats[i] = { ...newBot(i), username: s.name, level: s.level };
        }
      }
      rec.private = false;
      rec.inviteToken = null;
      if (fast) rec.turnMs = Math.max(5000, Math.round(this.local.cfg.turnTimeoutMs / 2));
      fx.lobby = true;
      this.machine.start(rec, fx, hostUserId);
      return { gameId, rated: rec.rated };
    });
  }

  /**
   * Seats a user on the draft. Coins are checked only where they can move: at a WAITING table (it becomes
   * rated when four humans start it). A vacated seat taken mid-game plays for no coins: no check.
   */
  private async sit(rec: TableRecord, fx: Effects, user: Participant, seat: number | undefined): Promise<void> {
    if (seatOf(rec, user.userId) === null) {
      const other = await this.lobby.seatedAt(user.userId);
      if (other && other !== rec.id) throw new TableError('You are already seated at another table');
      if (rec.status === 'WAITING') await this.ledger.assertCanAfford(user.userId, rec.settings.buyIn);
      await this.ledger.assertRatedAllowed(rec, user.userId, user); // issue #11: banned from rated tables
    }
    this.machine.join(rec, fx, user, seat);
  }

  /** Host only, WAITING (issue #24): removes a seated, watching, invited or admitted user from a private or public table. */
  removePlayer(gameId: string, hostUserId: string, userId: string): Promise<{ success: true }> {
    return this.local.command(gameId, { type: 'remove_player', actor: hostUserId, payload: { userId } }, (rec, fx) => {
      this.machine.removePlayer(rec, fx, hostUserId, userId);
      return { success: true as const };
    });
  }

  async leave(gameId: string, userId: string): Promise<{ success: true }> {
    await this.local.command(gameId, { type: 'leave', actor: userId }, (rec, fx) =>
      this.machine.leave(rec, fx, userId),
    );
    return { success: true as const };
  }

  async inviteBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<void> {
    await this.local.command(
      gameId,
      { type: midgame ? 'invite_bot_midgame' : 'invite_bot', actor: userId, payload: { seat } },
      (rec, fx) => this.machine.inviteBot(rec, fx, userId, seat, midgame),
    );
  }

  async removeBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<void> {
    await this.local.command(
      gameId,
      { type: midgame ? 'remove_bot_midgame' : 'remove_bot', actor: userId, payload: { seat } },
      (rec, fx) => this.machine.removeBot(rec, fx, userId, seat, midgame),
    );
  }

  // ------------------------------------------------------------------ the game

  async start(gameId: string, userId: string): Promise<void> {
    await this.local.command(gameId, { type: 'start', actor: userId }, async (rec, fx) => {
      this.machine.start(rec, fx, userId);
      await this.ledger.assertRatedAllowed(rec, userId); // issue #11: a rated start with a banned player is refused
    });
  }

  /** make_bid / play_card / reveal_cards; `actionId` makes a retry return the original result. */
  act(
    gameId: string,
    userId: string,
    kind: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
    actionId?: string,
  ): Promise<{ ok: true; seq: number }> {
    return this.local.command(gameId, { type: kind, actor: userId, actionId, payload }, (rec, fx) => {
      this.machine.humanAction(rec, fx, userId, kind, payload);
      return { ok: true as const, seq: 0 };
    });
  }

  /** Issue #31: claim the remaining tricks (table.claim.ts); `actionId` makes a retry return the original result. */
  claim(gameId: string, userId: string, actionId?: string): Promise<{ ok: true; tricks: number }> {
    return this.local.command(gameId, { type: 'claim', actor: userId, actionId }, (rec, fx) => ({
      ok: true as const,
      tricks: claimRest(this.machine, rec, fx, userId),
    }));
  }

  startNewHand(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.local.command(gameId, { type: 'start_new_hand', actor: userId }, (rec, fx) => {
      this.machine.startNewHand(rec, fx, userId);
      return { ok: true as const };
    });
  }

  playAgain(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.local.command(gameId, { type: 'play_again', actor: userId }, (rec, fx) => {
      this.machine.playAgain(rec, fx, userId);
      return { ok: true as const };
    });
  }
}
