/**
 * A complete replay document generated with common's engine and basic bots (tests, component harnesses). The
 * document is exactly what the server builds: the actions, and the hands from `runReplay`.
 */
import {
  apply,
  basicBot,
  createGame,
  DEFAULT_SETTINGS,
  mulberry32,
  randomSeed,
  REPLAY_SCHEMA,
  REPLAY_SCHEMA_VERSION,
  runReplay,
  toHex,
  viewFor,
  type GameAction,
  type GameReplay,
  type GameSettings,
  type ReplayAction,
  type Seat,
} from '@spades/common';

export function replayFixture(seed = 7, settings: GameSettings = { ...DEFAULT_SETTINGS, maxPoints: 150 }): GameReplay {
  const rng = mulberry32(seed);
  let s = createGame(settings);
  const actions: ReplayAction[] = [];
  const step = (a: GameAction, by: ReplayAction['by']) => {
    const r = apply(s, a);
    if (!r.ok) throw new Error(r.error);
    actions.push({
      by,
      action: (a.type === 'deal' ? { type: 'deal', seed: String(a.seed) } : a) as ReplayAction['action'],
    });
    s = r.state;
  };
  while (s.phase !== 'COMPLETED') {
    if (s.phase === 'WAITING' || s.phase === 'HAND_COMPLETED')
      step({ type: 'deal', seed: toHex(randomSeed(rng)) }, 'server');
    else step(basicBot.act(viewFor(s, s.turn as Seat), rng)!, s.turn === 0 ? 'human' : 'bot');
  }
  const run = runReplay(
    settings,
    actions.map((a) => a.action),
  );
  return {
    schema: REPLAY_SCHEMA,
    version: REPLAY_SCHEMA_VERSION,
    gameId: '00000000-0000-4000-8000-00000000abcd',
    gameNumber: 1,
    finishedAt: '2026-11-24T21:00:00.000Z',
    rated: false,
    private: false,
    settings,
    players: [
      { seat: 0, userId: 'u0', username: 'Ada', kind: 'human' },
      { seat: 1, userId: null, username: 'Bot 2', kind: 'bot' },
      { seat: 2, userId: null, username: 'Bot 3', kind: 'bot' },
      { seat: 3, userId: null, username: 'Bot 4', kind: 'bot' },
    ],
    hands: run.hands.map((h) => ({ ...h, score: h.score! })),
    actions,
    result: s.result!,
    payouts: null,
  };
}
