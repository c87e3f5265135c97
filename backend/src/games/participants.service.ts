import { Injectable } from '@nestjs/common';
import { UsersService } from '../users/users.service';
import { Participant, TableError } from './table';

/** Display data of a table participant, always read from the account (never from the request body). */
@Injectable()
export class ParticipantsService {
  constructor(private readonly users: UsersService) {}

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
}
