/**
 * Issue #28: partners. A player invites a friend to queue together as a team (the friend must have added the
 * inviter, as for table invitations; nobody blocked); the friend accepts and the team is queued (PARTNERS only).
 * "Keep partner" after a game is the same invitation with the previous partner. Preferred partners: the players one
 * partnered most often in the last 90 days (game history), for one-click invitations.
 */
import { Injectable } from '@nestjs/common';
import { isUuid, PreferredPartner, QUICKPLAY_ERRORS } from '@spades/common';
import { DataSource } from 'typeorm';
import { RateLimiter } from '../realtime/rate.limiter';
import { RealtimeService } from '../realtime/realtime.service';
import { TableError } from '../games/table';
import { MatchmakingService } from './matchmaking.service';
import { QueueStore } from './matchmaking.store';

@Injectable()
export class PartnersService {
  constructor(
    private readonly mm: MatchmakingService,
    private readonly store: QueueStore,
    private readonly realtime: RealtimeService,
    private readonly ds: DataSource,
    private readonly limiter: RateLimiter,
  ) {}

  private idOf(v: unknown, field: string): string {
    if (!isUuid(v)) throw new TableError(`${field} must be a user id`);
    return v;
  }

  async invite(fromId: string, body: unknown): Promise<{ sent: true }> {
    const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const toId = this.idOf(o.userId, 'userId');
    if (toId === fromId) throw new TableError(QUICKPLAY_ERRORS.partnerSelf);
    const q = this.mm.parse(o);
    if (q.mode !== 'PARTNERS') throw new TableError(QUICKPLAY_ERRORS.soloPartner);
    const rel: { user_id: string; kind: string }[] = await this.ds.query(
      `SELECT user_id, kind FROM user_relations WHERE (user_id = $1 AND target_id = $2) OR (user_id = $2 AND target_id = $1)`,
      [fromId, toId],
    );
    if (rel.some((r) => r.kind === 'block') || !rel.some((r) => r.kind === 'friend' && r.user_id === toId))
      throw new TableError(QUICKPLAY_ERRORS.notFriend, 403);
    if (!(await this.limiter.admit({ scope: 'partner-invite', max: 10, windowMs: 60_000 }, fromId)))
      throw new TableError('You are sending invitations too fast. Please wait a minute and try again.', 429);
    const me = await this.mm.participant(fromId);
    const inv = { fromId, fromName: me.username, mode: q.mode, stake: q.stake, pace: q.pace, at: Date.now() };
    await this.store.setInvite(toId, inv);
    this.realtime.emitToUser(toId, 'partner_invitation', {
      fromId,
      fromName: me.username,
      mode: q.mode,
      stake: q.stake,
      pace: q.pace,
    });
    return { sent: true };
  }

  async accept(userId: string, body: unknown): Promise<Record<string, unknown>> {
    const fromId = this.idOf((body as Record<string, unknown> | null)?.fromId, 'fromId');
    const inv = await this.store.takeInvite(userId, fromId);
    if (!inv) throw new TableError(QUICKPLAY_ERRORS.noInvitation, 404);
    const me = await this.mm.participant(userId);
    const status = await this.mm.join(fromId, { mode: inv.mode, stake: inv.stake, pace: inv.pace }, me);
    this.realtime.emitToUser(fromId, 'partner_update', { state: 'accepted', userId, username: me.username });
    return { ...status };
  }

  async decline(userId: string, body: unknown): Promise<{ declined: true }> {
    const fromId = this.idOf((body as Record<string, unknown> | null)?.fromId, 'fromId');
    const inv = await this.store.takeInvite(userId, fromId);
    if (!inv) throw new TableError(QUICKPLAY_ERRORS.noInvitation, 404);
    const me = await this.mm.participant(userId);
    this.realtime.emitToUser(fromId, 'partner_update', { state: 'declined', userId, username: me.username });
    return { declined: true };
  }

  /** Partners (same team: seats two apart) of the last 90 days, most games first. */
  async preferred(userId: string): Promise<PreferredPartner[]> {
    const rows: { user_id: string; username: string; games: string }[] = await this.ds.query(
      `SELECT p.user_id, u.username, count(*) AS games
         FROM game_record_players me
         JOIN game_records r ON r.game_id = me.game_id AND r.game_number = me.game_number AND r.mode = 'PARTNERS'
         JOIN game_record_players p ON p.game_id = me.game_id AND p.game_number = me.game_number AND p.seat = (me.seat + 2) % 4
         JOIN users u ON u.id = p.user_id
        WHERE me.user_id = $1 AND me.finished_at > now() - interval '90 days'
        GROUP BY p.user_id, u.username ORDER BY games DESC, u.username LIMIT 10`,
      [userId],
    );
    return rows.map((r) => ({ userId: r.user_id, username: r.username, games: Number(r.games) }));
  }
}
