import { Injectable, Optional } from '@nestjs/common';
import { CHAT_RATE_MAX, CHAT_RATE_WINDOW_MS, muteMessage } from '@spades/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { SanctionsService } from '../moderation/sanctions.service';
import { RATE_MESSAGES, RateLimit, RateLimiter } from '../realtime/rate.limiter';
import { UsersService } from '../users/users.service';
import { Participant, TableError } from './table';

/** Table chat's bucket of the per-user chat limit (same limit as lobby chat). */
export const TABLE_CHAT_LIMIT: RateLimit = { scope: 'table-chat', max: CHAT_RATE_MAX, windowMs: CHAT_RATE_WINDOW_MS };

/** How long (and how many) admitted chat action ids are remembered so that their retries are not counted. */
const ADMITTED_ID_TTL_MS = 10 * 60_000;
const ADMITTED_IDS_MAX = 50_000;

/** Refusals of an in-app invitation (ParticipantsService.assertCanInvite). */
export const INVITE_ERRORS = {
  blocked: 'You cannot invite this player',
  notFriended: (name: string) => `${name} has not added you as a friend; send them the table's invite link instead`,
} as const;

/** Display data of a table participant, always read from the account (never from the request body). */
@Injectable()
export class ParticipantsService {
  /** Chat action ids admitted by assertChatRate (key → until when a retry is not counted), oldest first. */
  private readonly admittedChatIds = new Map<string, number>();

  constructor(
    private readonly users: UsersService,
    private readonly ds: DataSource,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
    /** Issue #25: a player muted in all chat cannot chat at tables either. */
    @Optional() private readonly sanctions?: SanctionsService,
  ) {}

  async get(userId: string): Promise<Participant> {
    const u = await this.users.findById(userId);
    if (!u) throw new TableError('Unknown user', 401);
    return { userId: u.id, username: u.username, avatar: u.avatar ?? null };
  }

  /** Another user (e.g. an invitee): 404 when unknown. */
  async find(userId: string): Promise<Participant> {
    const u = /^[0-9a-f-]{36}$/i.test(userId) ? await this.users.findById(userId) : null;
    if (!u) throw new TableError('User not found', 404);
    return { userId: u.id, username: u.username, avatar: u.avatar ?? null };
  }

  /**
   * Table chat: the per-user limit of lobby chat (CHAT_RATE_MAX per CHAT_RATE_WINDOW_MS, shared by the nodes in
   * cluster mode) in its own bucket. Checked by the node the socket is on, before any forwarding, so once per send.
   * A retry of an action id this node already admitted is not counted again: the table answers it with the original
   * result (or refuses another text under that id), so it can never add a message.
   */
  async assertChatRate(userId: string, gameId: string, actionId?: string): Promise<void> {
    const key = actionId === undefined ? null : JSON.stringify([userId, gameId, actionId]);
    const now = Date.now();
    if (key !== null && (this.admittedChatIds.get(key) ?? 0) > now) return;
    const mute = await this.sanctions?.muteFor(userId, 'table');
    if (mute) throw new TableError(muteMessage(mute), 403);
    if (!(await this.limiter.admit(TABLE_CHAT_LIMIT, userId, now)))
      throw new TableError(RATE_MESSAGES.chatTooFast, 429);
    if (key === null) return;
    this.admittedChatIds.delete(key);
    this.admittedChatIds.set(key, now + ADMITTED_ID_TTL_MS);
    // oldest first (insertion order): drop the expired ones, and the oldest beyond the cap
    for (const [k, until] of this.admittedChatIds) {
      if (until > now && this.admittedChatIds.size <= ADMITTED_IDS_MAX) break;
      this.admittedChatIds.delete(k);
    }
  }

  /**
   * Issue #12 / ruling 13: an in-app invitation reaches a player only from someone on that player's OWN friend list
   * (adding a friend is one-sided, so the inviter's list proves nothing), nobody blocked either way, and at most
   * INVITE_MAX_PER_MINUTE per inviter (checked last, so refused invitations do not use it up). Invite links are not
   * affected. Throws TableError with a message the invite dialog shows as is.
   */
  async assertCanInvite(fromId: string, toId: string): Promise<void> {
    const rel: { user_id: string; kind: string }[] = await this.ds.query(
      `SELECT user_id, kind FROM user_relations WHERE (user_id = $1 AND target_id = $2) OR (user_id = $2 AND target_id = $1)`,
      [fromId, toId],
    );
    if (rel.some((r) => r.kind === 'block')) throw new TableError(INVITE_ERRORS.blocked, 403);
    if (!rel.some((r) => r.kind === 'friend' && r.user_id === toId)) {
      const to = await this.users.findById(toId);
      throw new TableError(INVITE_ERRORS.notFriended(to?.username ?? 'This player'), 403);
    }
    const limit: RateLimit = { scope: 'invite', max: this.config.inviteMaxPerMinute, windowMs: 60_000 };
    if (!(await this.limiter.admit(limit, fromId))) throw new TableError(RATE_MESSAGES.invitesTooFast, 429);
  }
}
