import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { LobbyPlayer, SocialResponse, SocialStatus } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { CoinsService } from '../coins/coins.service';
import { RealtimeService } from '../realtime/realtime.service';
import { UUID_RE } from '@spades/common';
import { CHAT_HIDES_SQL } from '../reports/chat-hides';

/**
 * Directed relations: (user, target, friend|block). A user's view of a target is its own row: 'friend',
 * 'blocked' or none. Blocking replaces the blocker's friendship and removes the target's friendship with
 * the blocker. You cannot befriend someone you block (unblock first).
 */
@Injectable()
export class SocialService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly realtime: RealtimeService,
    private readonly coins: CoinsService,
  ) {}

  private async checkTarget(callerId: string, targetId: string): Promise<{ username: string }> {
    if (targetId === callerId) throw new BadRequestException('You cannot do that to yourself');
    if (!UUID_RE.test(targetId)) throw new NotFoundException('User not found');
    const rows: { username: string }[] = await this.dataSource.query(`SELECT username FROM users WHERE id = $1`, [
      targetId,
    ]);
    if (!rows.length) throw new NotFoundException('User not found');
    return rows[0];
  }

  async statusOf(
    callerId: string,
    targetId: string,
    m: EntityManager = this.dataSource.manager,
  ): Promise<SocialStatus> {
    const rows: { kind: string }[] = await m.query(
      `SELECT kind FROM user_relations WHERE user_id = $1 AND target_id = $2`,
      [callerId, targetId],
    );
    return rows.length ? (rows[0].kind === 'block' ? 'blocked' : 'friend') : 'none';
  }

  async addFriend(callerId: string, targetId: string): Promise<SocialResponse> {
    await this.checkTarget(callerId, targetId);
    const current = await this.statusOf(callerId, targetId);
    if (current === 'blocked') throw new ConflictException('You have blocked this player: unblock them first');
    if (current === 'none') {
      await this.dataSource.query(
        `INSERT INTO user_relations (user_id, target_id, kind) VALUES ($1, $2, 'friend') ON CONFLICT DO NOTHING`,
        [callerId, targetId],
      );
      const [caller] = await this.dataSource.query(`SELECT username FROM users WHERE id = $1`, [callerId]);
      const targetBlocksCaller = (await this.statusOf(targetId, callerId)) === 'blocked';
      if (!targetBlocksCaller)
        this.realtime.emitToUser(targetId, 'friendAdded', { userId: callerId, username: caller.username });
    }
    return { success: true, userId: targetId, status: 'friend' };
  }

  async removeFriend(callerId: string, targetId: string): Promise<SocialResponse> {
    await this.checkTarget(callerId, targetId);
    await this.dataSource.query(
      `DELETE FROM user_relations WHERE user_id = $1 AND target_id = $2 AND kind = 'friend'`,
      [callerId, targetId],
    );
    return { success: true, userId: targetId, status: await this.statusOf(callerId, targetId) };
  }

  async block(callerId: string, targetId: string): Promise<SocialResponse> {
    await this.checkTarget(callerId, targetId);
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `INSERT INTO user_relations (user_id, target_id, kind) VALUES ($1, $2, 'block')
         ON CONFLICT (user_id, target_id) DO UPDATE SET kind = 'block', created_at = now()`,
        [callerId, targetId],
      );
      await m.query(`DELETE FROM user_relations WHERE user_id = $1 AND target_id = $2 AND kind = 'friend'`, [
        targetId,
        callerId,
      ]);
    });
    return { success: true, userId: targetId, status: 'blocked' };
  }

  async unblock(callerId: string, targetId: string): Promise<SocialResponse> {
    await this.checkTarget(callerId, targetId);
    await this.dataSource.query(`DELETE FROM user_relations WHERE user_id = $1 AND target_id = $2 AND kind = 'block'`, [
      callerId,
      targetId,
    ]);
    return { success: true, userId: targetId, status: await this.statusOf(callerId, targetId) };
  }

  /** Ids of users who block or mute `userId` (their sockets must not receive its chat; issue #25: mutes). */
  async blockersOf(userId: string): Promise<string[]> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT user_id FROM ${CHAT_HIDES_SQL} h WHERE target_id = $1`,
      [userId],
    );
    return rows.map((r) => r.user_id);
  }

  /** Ids `userId` blocks. */
  async blockedBy(userId: string): Promise<Set<string>> {
    const rows: { target_id: string }[] = await this.dataSource.query(
      `SELECT target_id FROM user_relations WHERE user_id = $1 AND kind = 'block'`,
      [userId],
    );
    return new Set(rows.map((r) => r.target_id));
  }

  /** GET /api/users: every player (the caller included, for completeness; deleted accounts not) with the caller's view. */
  async listPlayers(callerId: string): Promise<LobbyPlayer[]> {
    const rows: { id: string; username: string; avatar: string | null; kind: string | null; balance: string | null }[] =
      await this.dataSource.query(
        `SELECT u.id, u.username, u.avatar, r.kind, a.balance
           FROM users u
           LEFT JOIN user_relations r ON r.user_id = $1 AND r.target_id = u.id
           LEFT JOIN coin_accounts a ON a.user_id = u.id
          WHERE u.deleted_at IS NULL
          ORDER BY lower(u.username)`,
        [callerId],
      );
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      avatar: r.avatar,
      status: r.kind === 'block' ? 'blocked' : r.kind === 'friend' ? 'friend' : 'none',
      online: this.realtime.isOnline(r.id),
      coins: Number(r.balance ?? 0),
    }));
  }
}
