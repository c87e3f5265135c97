import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Complete game event log (issue #4): every row says who issued it (`actor_kind`: human, bot, timeout,
 * server) and carries the rules-engine actions it applied (`actions`: [{gameNumber, by, action}], with the
 * deal seeds, bids and cards), so a game's log replays through common's `apply` to its stored snapshot.
 */
export class GameEventActions1764000000000 implements MigrationInterface {
  name = 'GameEventActions1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_events ADD COLUMN actor_kind varchar(10)`);
    await q.query(`ALTER TABLE game_events ADD COLUMN actions jsonb`);
    await q.query(
      `ALTER TABLE game_events ADD CONSTRAINT game_events_actor_kind_ck CHECK (actor_kind IN ('human', 'bot', 'timeout', 'server'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_events DROP CONSTRAINT IF EXISTS game_events_actor_kind_ck`);
    await q.query(`ALTER TABLE game_events DROP COLUMN IF EXISTS actions`);
    await q.query(`ALTER TABLE game_events DROP COLUMN IF EXISTS actor_kind`);
  }
}
