/**
 * Starting one bot worker thread: which file it runs and how it loads @spades/common, from compiled code
 * (dist/bots/bot-worker.js, common/dist) or from the TypeScript sources (jest, tsx: tsx's require hook,
 * common/src). The pool (bot-pool.ts) decides when and how many.
 */
import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import type { BotWorkerData } from './bot-protocol';

export interface BotWorkerSetup {
  file: string;
  register: string | null;
  commonEntry: string;
}

export function resolveWorkerSetup(commonEntry?: string): BotWorkerSetup {
  const compiled = __filename.endsWith('.js');
  if (compiled) {
    return {
      file: path.join(__dirname, 'bot-worker.js'),
      register: null,
      commonEntry: commonEntry ?? require.resolve('@spades/common'),
    };
  }
  return {
    file: path.join(__dirname, 'bot-worker.ts'),
    register: require.resolve('tsx/cjs'),
    commonEntry: commonEntry ?? path.resolve(__dirname, '../../../common/src/index.ts'),
  };
}

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.__register) require(workerData.__register);
require(workerData.__entry);
`;

/** A new worker thread running bot-worker with `data` (the setup's common entry is filled in). */
export function startBotWorker(setup: BotWorkerSetup, data: Omit<BotWorkerData, 'commonEntry'>): Worker {
  const workerData: BotWorkerData & { __register: string | null; __entry: string } = {
    ...data,
    commonEntry: setup.commonEntry,
    __register: setup.register,
    __entry: setup.file,
  };
  return new Worker(BOOTSTRAP, { eval: true, workerData });
}
