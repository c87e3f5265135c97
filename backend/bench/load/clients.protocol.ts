/**
 * The IPC contract between the orchestrator (load.bench.ts) and a client process (clients.ts): the commands it
 * sends, what `collect` answers, and the settings of every bench table.
 */
import { GameSettings } from '@spades/common';

export type Command =
  | {
      cmd: 'setup';
      /** The server nodes (one URL per node); socket g of the run (table · sockets per table + seat) uses urls[g % n]. */
      urls: string[];
      tables: number[];
      humans: 1 | 4;
      spectators: number;
      rate: number;
      totalTables: number;
      batch: number;
      runId: string;
      /** HTTP requests: 'sticky' = to the node of the user's socket (the nginx example hashes /api/ and /socket.io/ alike), 'random' = any node. */
      http: 'sticky' | 'random';
    }
  | { cmd: 'mark' }
  | { cmd: 'collect' }
  | { cmd: 'storm-prepare'; timeoutMs: number }
  | { cmd: 'storm'; timeoutMs: number }
  | { cmd: 'echo'; url: string; sockets: number; tableOffset: number; humans: number; rate: number; seconds: number }
  | { cmd: 'close-game' }
  | { cmd: 'stop' };

export interface Collected {
  actions: number;
  botActions: number;
  ackMs: number[];
  updateMs: number[];
  errors: number;
  errorSamples: string[];
  tablesPlaying: number;
  /** CPU of this client process since `mark` (100 = one core): a saturated client would distort the figures. */
  cpuPct: number;
  /** Per ackMs sample: the index in `where` of the socket that sent it. */
  ackWhere: number[];
  /** This client process's event-loop delay p99 since `mark`, ms. */
  eventLoopP99Ms: number;
  /** Per socket of this process: its table and the index of the node it is connected to. */
  where: [gameId: string, node: number][];
  /** Bytes of the server's events received by this process's sockets since `mark`, by event (socket.io text encoding). */
  rxBytes: Record<string, number>;
}

export const BENCH_SETTINGS: GameSettings = {
  gameMode: 'PARTNERS',
  biddingOption: 'REG',
  gimmick: null,
  minPoints: -100,
  maxPoints: 500,
  buyIn: 100_000,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

/** To the orchestrator (IPC). */
export const send = (m: unknown) => process.send?.(m);
