/**
 * Table timers: one timeout per table, armed from the record's stored deadlines (flow timer and seat
 * replacements), so a restarted server resumes them exactly. When the next deadline is a bot's move, the bot
 * starts thinking at once, inside its think delay (the pool gets the deadline), and the tick collects the answer.
 */
import { Logger } from '@nestjs/common';
import { apply, GameAction, Seat, viewFor } from '@spades/common';
import { randomInt } from 'node:crypto';
import { BotPool, botLevelFromEnv } from '../bots/bot-pool';
import type { GamesConfig } from './games.config';
import { TableMachine, TableRecord } from './table';
import type { TableActor } from './table.actor';

export class TableTimers {
  private readonly log = new Logger('TableTimers');
  stopping = false;

  constructor(
    private readonly machine: TableMachine,
    private readonly cfg: GamesConfig,
    private readonly onDue: (actor: TableActor) => void,
    private readonly bots?: BotPool,
  ) {}

  /** (Re-)arms the table's timer for its earliest deadline; starts a due bot's thinking now. */
  arm(actor: TableActor): void {
    this.cancel(actor);
    if (this.stopping || actor.rec.status === 'CLOSED') return;
    const at = this.machine.nextDeadline(actor.rec);
    if (at === null) return;
    this.prefetch(actor);
    const delay = Math.max(0, at - Date.now());
    actor.timer = setTimeout(
      () => {
        actor.timer = null;
        this.onDue(actor);
      },
      Math.min(delay, 2 ** 31 - 1),
    );
  }

  cancel(actor: TableActor): void {
    if (actor.timer) clearTimeout(actor.timer);
    actor.timer = null;
  }

  /** Drops a started bot decision (the table closed, or its situation changed). */
  dropPlan(actor: TableActor): void {
    actor.botPlan?.abort.abort();
    actor.botPlan = null;
  }

  /** Re-arms a second later (a failed tick must not stall the table). */
  retryLater(actor: TableActor, stillDriven: () => boolean): void {
    if (this.stopping || !stillDriven()) return;
    actor.timer = setTimeout(() => this.arm(actor), 1000);
  }

  /**
   * Bot moves for the seat whose flow timer is due. Uses the decision started at the beginning of the think
   * delay when it belongs to the same situation; empty → the synchronous common bot decides.
   */
  async plan(actor: TableActor, rec: TableRecord, seat: Seat): Promise<GameAction[]> {
    const pre = actor.botPlan;
    actor.botPlan = null;
    if (pre && rec.flow?.key === pre.key) return pre.plan;
    pre?.abort.abort();
    return this.decide(rec, seat, Date.now());
  }

  private prefetch(actor: TableActor): void {
    const f = actor.rec.flow;
    const e = actor.rec.engine;
    if (!this.bots || !f || f.kind !== 'bot' || (e.phase !== 'BIDDING' && e.phase !== 'PLAYING')) {
      this.dropPlan(actor);
      return;
    }
    if (actor.botPlan?.key === f.key) return;
    this.dropPlan(actor);
    const abort = new AbortController();
    const plan = this.decide(actor.rec, e.turn as Seat, f.at, abort.signal);
    plan.catch(() => undefined);
    actor.botPlan = { key: f.key, plan, abort };
  }

  /** Decisions of the configured bot level from the shared pool; the bot only ever sees its seat's view. */
  private async decide(rec: TableRecord, seat: Seat, deadline: number, signal?: AbortSignal): Promise<GameAction[]> {
    if (!this.bots) return [];
    const out: GameAction[] = [];
    let state = rec.engine;
    try {
      for (let i = 0; i < 3; i++) {
        // the first decision is due when the think delay ends; a follow-up (after a reveal) as soon as possible
        const due = i === 0 ? deadline : Date.now();
        const action = await this.bots.decide(
          botLevelFromEnv(rec.seats[seat]?.level ?? this.cfg.botLevel),
          viewFor(state, seat),
          randomInt(0, 2 ** 31),
          { deadline: due, signal },
        );
        if (!action) break;
        out.push(action);
        if (action.type !== 'reveal') break;
        const r = apply(state, action);
        if (!r.ok) break;
        state = r.state;
      }
    } catch (e) {
      this.log.warn(`bot pool failed, using the inline bot: ${(e as Error).message}`);
      return [];
    }
    return out;
  }
}
