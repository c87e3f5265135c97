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
}
