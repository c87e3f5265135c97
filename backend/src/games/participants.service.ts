import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UsersService } from '../users/users.service';
import { Participant, TableError } from './table';

/** Display data of a table participant, always read from the account (never from the request body). */
@Injectable()
export class ParticipantsService {
  constructor(
    private readonly users: UsersService,
    private readonly ds: DataSource,
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

  /** Issue #12: only your friends can be invited, and nobody blocked either way. */
  async assertCanInvite(fromId: string, toId: string): Promise<void> {
    const rel: { user_id: string; kind: string }[] = await this.ds.query(
      `SELECT user_id, kind FROM user_relations WHERE (user_id = $1 AND target_id = $2) OR (user_id = $2 AND target_id = $1)`,
      [fromId, toId],
    );
    if (rel.some((r) => r.kind === 'block')) throw new TableError('You cannot invite this player', 403);
    if (!rel.some((r) => r.kind === 'friend' && r.user_id === fromId)) throw new TableError('You can only invite your friends', 403);
  }
}
