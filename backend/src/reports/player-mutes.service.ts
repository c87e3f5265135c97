import { BadRequestException, HttpException, Injectable, Logger, NotFoundException, Optional } from '@nestjs/common';
import type { PlayerMuteList, PlayerMuteResult, ReportContext } from '@spades/common';
import { AUTO_MUTE_WINDOW_MS, PLAYER_MUTE_RATE_MAX } from '@spades/common';
import { DataSource } from 'typeorm';
import { reportUnexpected } from '../common/error-ref';
import { SanctionsService } from '../moderation/sanctions.service';
import { RateLimit, RateLimiter } from '../realtime/rate.limiter';
import { SettingsService } from '../settings/settings.service';
import { UUID_RE } from '@spades/common';
import { ReportContextCapture } from './report-context';
import { REPORT_MESSAGES as M } from './reports.messages';

export const PLAYER_MUTE_LIMIT: RateLimit = { scope: 'player-mute', max: PLAYER_MUTE_RATE_MAX, windowMs: 60_000 };
/** Without SettingsService (a test module), the spec's default. */
export const DEFAULT_AUTO_MUTE_THRESHOLD = 3;

/**
 * Player mutes (issue #25): a player hides another's chat lines for themselves, in lobby and table chat, through
 * the same path as blocks (chat-hides.ts). A player muted by `autoMuteThreshold` distinct players within 24 h
 * (mutes made since their last auto-mute review) is muted in lobby chat until a moderator reviews it: the server
 * files an 'auto-mute' report and applies SanctionsService's automatic mute (audited 'automod.mute') in one
 * transaction; the unique index on pending auto-mute reports makes that happen once however many mutes race.
 * Staff accounts are never auto-muted.
 */
@Injectable()
export class PlayerMutesService {
  private readonly logger = new Logger('PlayerMutes');

  constructor(
    private readonly ds: DataSource,
    private readonly limiter: RateLimiter,
    private readonly sanctions: SanctionsService,
    private readonly capture: ReportContextCapture,
    @Optional() private readonly settings?: SettingsService,
  ) {}

  async list(userId: string): Promise<PlayerMuteList> {
    const rows: { target_id: string; username: string; created_at: Date }[] = await this.ds.query(
      `SELECT p.target_id, u.username, p.created_at FROM player_mutes p JOIN users u ON u.id = p.target_id
        WHERE p.user_id = $1 ORDER BY u.username`,
      [userId],
    );
    return {
      mutes: rows.map((r) => ({
        userId: r.target_id,
        username: r.username,
        mutedAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  /** Mutes `targetId` for `userId` (idempotent: a second mute keeps the first's time). */
  async mute(userId: string, targetId: string): Promise<PlayerMuteResult> {
    await this.check(userId, targetId);
    const inserted: unknown[] = await this.ds.query(
      `INSERT INTO player_mutes (user_id, target_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING target_id`,
      [userId, targetId],
    );
    if (inserted.length) {
      // the mute itself is done; a failing auto-mute check must not turn it into an error for the muter
      await this.autoMute(targetId).catch((e: unknown) => reportUnexpected(this.logger, 'auto-mute', e));
    }
    return { userId: targetId, muted: true };
  }

  async unmute(userId: string, targetId: string): Promise<PlayerMuteResult> {
    await this.check(userId, targetId);
    await this.ds.query(`DELETE FROM player_mutes WHERE user_id = $1 AND target_id = $2`, [userId, targetId]);
    return { userId: targetId, muted: false };
  }

  private async check(userId: string, targetId: string): Promise<void> {
    if (!UUID_RE.test(targetId)) throw new NotFoundException(M.playerNotFound);
    if (targetId === userId) throw new BadRequestException(M.muteYourself);
    const [target] = await this.ds.query(`SELECT 1 FROM users WHERE id = $1`, [targetId]);
    if (!target) throw new NotFoundException(M.playerNotFound);
    if (!(await this.limiter.admit(PLAYER_MUTE_LIMIT, userId))) throw new HttpException(M.mutesTooFast, 429);
  }

  /** Auto-mutes `targetId` when enough distinct players muted them recently; returns the report id when it did. */
  async autoMute(targetId: string): Promise<string | null> {
    const threshold = this.settings?.get().autoMuteThreshold ?? DEFAULT_AUTO_MUTE_THRESHOLD;
    const [target]: { role: string }[] = await this.ds.query(`SELECT role FROM users WHERE id = $1`, [targetId]);
    if (!target || target.role !== 'user') return null;
    const mutedBy: { user_id: string; username: string; created_at: Date }[] = await this.ds.query(
      `SELECT p.user_id, u.username, p.created_at FROM player_mutes p JOIN users u ON u.id = p.user_id
        WHERE p.target_id = $1
          AND p.created_at > greatest(now() - make_interval(secs => $2::int),
                (SELECT coalesce(max(closed_at), '-infinity') FROM reports WHERE target_id = $1 AND category = 'auto-mute'))
        ORDER BY p.created_at`,
      [targetId, AUTO_MUTE_WINDOW_MS / 1000],
    );
    if (mutedBy.length < threshold) return null;
    if (await this.sanctions.muteFor(targetId, 'lobby')) return null; // already silenced in the lobby
    const reason = M.autoMuteReason(mutedBy.length);
    const context: ReportContext = {
      kind: 'auto_mute',
      threshold,
      mutedBy: mutedBy.map((r) => ({
        userId: r.user_id,
        username: r.username,
        at: new Date(r.created_at).toISOString(),
      })),
      lines: await this.capture.recentLobbyLines(targetId),
      sanctionId: null,
    };
    return this.ds.transaction(async (tx) => {
      const [report]: { id: string }[] = await tx.query(
        `INSERT INTO reports (reporter_id, target_id, category, text, context_kind, context)
         VALUES (NULL, $1, 'auto-mute', $2, 'auto_mute', $3::jsonb)
         ON CONFLICT (target_id) WHERE category = 'auto-mute' AND status IN ('open', 'assigned') DO NOTHING
         RETURNING id::text AS id`,
        [targetId, reason, JSON.stringify(context)],
      );
      if (!report) return null; // a pending auto-mute exists: nothing more to do
      const sanction = await this.sanctions.apply(
        null,
        targetId,
        { kind: 'mute', scope: 'lobby', minutes: null, reason },
        tx,
      );
      await tx.query(
        `UPDATE reports SET sanction_id = $2, context = jsonb_set(context, '{sanctionId}', to_jsonb($2::text)) WHERE id = $1`,
        [report.id, sanction.id],
      );
      return report.id;
    });
  }
}
