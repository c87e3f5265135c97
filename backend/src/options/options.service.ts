import { BadRequestException, Injectable } from '@nestjs/common';
import { normalizePlayerOptions, parsePlayerOptionsInput, type PlayerOptions } from '@spades/common';
import { DataSource } from 'typeorm';

/** Issue #31: a player's table options, stored per account (`player_options`, one JSON row). */
@Injectable()
export class OptionsService {
  constructor(private readonly ds: DataSource) {}

  /** The stored options over the defaults (an account that never saved any gets the defaults). */
  async get(userId: string): Promise<PlayerOptions> {
    const rows: { options: unknown }[] = await this.ds.query(`SELECT options FROM player_options WHERE user_id = $1`, [
      userId,
    ]);
    return normalizePlayerOptions(rows[0]?.options);
  }

  /** Validates a change (any subset of the fields), merges it over the stored options in one statement. 400 on bad input. */
  async update(userId: string, input: unknown): Promise<PlayerOptions> {
    const parsed = parsePlayerOptionsInput(input);
    if (!parsed.ok) throw new BadRequestException(parsed.message);
    const rows: { options: unknown }[] = await this.ds.query(
      `INSERT INTO player_options (user_id, options, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (user_id) DO UPDATE SET options = player_options.options || EXCLUDED.options, updated_at = now()
       RETURNING options`,
      [userId, JSON.stringify(parsed.value)],
    );
    return normalizePlayerOptions(rows[0]?.options);
  }
}
