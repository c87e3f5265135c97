import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reports and player mutes (issue #25).
 * - `reports`: one row per report (a player's, or the server's 'auto-mute'); `context` is what the SERVER captured
 *   (chat lines around the reported one, or the game). Status open → assigned → resolved | dismissed; `closed_*`
 *   is set exactly when it is resolved or dismissed. At most one pending auto-mute report per player.
 *   `sanction_id` = the sanction applied on resolve, or the automatic mute of an 'auto-mute' report.
 *   Open reports: `SELECT count(*) FROM reports WHERE status IN ('open', 'assigned')`.
 * - `player_mutes`: a player hides another's chat lines (lobby and table), like a block but without unfriending;
 *   `created_at` feeds the auto-mute (distinct muters within 24 h).
 */
export class Reports1765020000000 implements MigrationInterface {
  name = 'Reports1765020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reports (
        id bigserial PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        reporter_id uuid REFERENCES users(id) ON DELETE SET NULL,
        target_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        category text NOT NULL CHECK (category IN ('abusive_chat', 'cheating', 'quitting', 'offensive_name', 'spam',
                                                   'other', 'auto-mute')),
        text text NOT NULL DEFAULT '' CHECK (length(text) <= 1000),
        context_kind text NOT NULL CHECK (context_kind IN ('profile', 'game', 'lobby_chat', 'table_chat', 'auto_mute')),
        context_ref text CHECK (context_ref IS NULL OR length(context_ref) <= 200),
        context jsonb NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'assigned', 'resolved', 'dismissed')),
        assignee_id uuid REFERENCES users(id) ON DELETE SET NULL,
        assigned_at timestamptz,
        closed_at timestamptz,
        closed_by uuid REFERENCES users(id) ON DELETE SET NULL,
        resolution_reason text CHECK (resolution_reason IS NULL OR length(resolution_reason) <= 1000),
        resolution_action jsonb,
        sanction_id text,
        CHECK ((status IN ('resolved', 'dismissed')) = (closed_at IS NOT NULL)),
        CHECK (status <> 'assigned' OR assignee_id IS NOT NULL),
        CHECK (reporter_id IS NULL OR reporter_id <> target_id)
      )`);
    await q.query(`CREATE INDEX reports_status_idx ON reports (status, id DESC)`);
    await q.query(`CREATE INDEX reports_target_idx ON reports (target_id, id DESC)`);
    await q.query(
      `CREATE INDEX reports_reporter_idx ON reports (reporter_id, target_id) WHERE status IN ('open', 'assigned')`,
    );
    await q.query(
      `CREATE UNIQUE INDEX reports_one_pending_auto_mute ON reports (target_id)
        WHERE category = 'auto-mute' AND status IN ('open', 'assigned')`,
    );
    await q.query(`
      CREATE TABLE player_mutes (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        target_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, target_id),
        CHECK (user_id <> target_id)
      )`);
    await q.query(`CREATE INDEX player_mutes_target_idx ON player_mutes (target_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE player_mutes`);
    await q.query(`DROP TABLE reports`);
  }
}
