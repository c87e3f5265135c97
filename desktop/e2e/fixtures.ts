/** Server TableView fixtures (common/src/protocol/games.ts shape) for rendering checks of every table state. */
import { DEFAULT_SETTINGS, dealFromSeed, seedCommitment, type Card } from '../../common/src/index';

export const SEED = '7f3a9c0e1b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a';
const seedBytes = Uint8Array.from(SEED.match(/../g)!.map((h) => parseInt(h, 16)));
export const HANDS: Card[][] = dealFromSeed(seedBytes);
export const COMMITMENT = seedCommitment(SEED);

type Status = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED';

export function tableFixture(opts: {
  selfId: string;
  selfName: string;
  status: Status;
  mySeat?: number | null;
  bots?: boolean;
  emptySeats?: number[];
  gameMode?: 'PARTNERS' | 'SOLO';
  blindNil?: boolean;
  /** PLAYING: cards already in the current trick (default 2), or a completed trick on display (winner highlighted). */
  trickCards?: 0 | 1 | 2 | 3;
  completedTrick?: boolean;
  /** Long names (layout checks). */
  longNames?: boolean;
}) {
  const mySeat = opts.mySeat === undefined ? 0 : opts.mySeat;
  const names = opts.longNames
    ? ['', 'Marlowe_the_Long', 'Bot Bella Donna', 'Queenie_Longname']
    : ['', 'Marlowe', 'Bot Bella', 'Queenie'];
  const players = [0, 1, 2, 3].map((i) => {
    if (opts.emptySeats?.includes(i)) return null;
    const me = i === mySeat;
    const bot = !me && (opts.bots ?? true) && i === 2;
    return {
      id: me ? opts.selfId : `p${i}`,
      username: me ? opts.selfName : names[i],
      name: me ? opts.selfName : names[i],
      avatar: null,
      image: null,
      type: bot ? 'bot' : 'human',
      position: i,
      team: opts.gameMode === 'SOLO' ? i + 1 : i % 2 === 0 ? 1 : 2,
      tricks: 0,
      bid: null,
      blind: false,
      handCount: 13,
      isDealer: i === 3,
      hand: null,
      timeouts: 0,
    };
  });
  const playing = opts.status === 'PLAYING';
  const bidding = opts.status === 'BIDDING';
  const trickNumber = playing ? 4 : opts.status === 'WAITING' ? 0 : 13;
  const myHand = mySeat === null ? [] : HANDS[mySeat].slice(0, playing ? 9 : bidding ? 13 : 0);
  const tricks = playing ? [1, 2, 0, 1] : opts.status === 'WAITING' || bidding ? [0, 0, 0, 0] : [3, 4, 2, 4];
  const bids = bidding ? [null, 4, 2, 3] : opts.status === 'WAITING' ? [null, null, null, null] : [3, 4, 0, 4];
  const settings = {
    ...DEFAULT_SETTINGS,
    gameMode: opts.gameMode ?? 'PARTNERS',
    specialRules: { ...DEFAULT_SETTINGS.specialRules, allowBlindNil: opts.blindNil === true },
  };
  for (const p of players)
    if (p) {
      const i = p.position;
      p.tricks = tricks[i];
      p.bid = bids[i] as never;
      p.handCount = opts.status === 'WAITING' ? 0 : playing ? (i === 2 || i === 3 ? 8 : 9) : bidding ? 13 : 0;
    }
  const summary = {
    handNumber: 2,
    dealerIndex: 3,
    team1Score: 31,
    team2Score: 80,
    team1Bags: 2,
    team2Bags: 7,
    team1TotalScore: 131,
    team2TotalScore: 162,
    playerScores: [31, 80, 31, 80],
    playerTotalScores: [131, 162, 131, 162],
    playerBags: [2, 7, 2, 7],
    tricksPerPlayer: [3, 4, 2, 4],
    bids: [3, 4, 0, 4],
    sides: [],
    seed: SEED,
    commitment: COMMITMENT,
  };
  return {
    id: 'fixture-table',
    gameId: 'fixture-table',
    status: opts.status,
    gameNumber: 1,
    hostId: players[0]?.id ?? null,
    rated: false,
    mySeat,
    viewer: mySeat === null ? 'spectator' : 'player',
    currentPlayer: null,
    currentPlayerIndex: playing ? mySeat : null,
    players,
    hands: [0, 1, 2, 3].map((i) => (i === mySeat && !opts.blindNil ? myHand : [])),
    handCounts: players.map((p) => p?.handCount ?? 0),
    handHidden: opts.blindNil === true,
    bidding: {
      bids,
      blind: [false, false, false, false],
      autoBid: [false, false, false, false],
      nilBids: bids.map((b) => b === 0),
      currentBidderIndex: bidding ? mySeat : null,
      currentPlayer: null,
    },
    play: {
      currentTrick:
        playing && !opts.completedTrick
          ? [
              { playerIndex: 1, ...HANDS[1][12] },
              { playerIndex: 2, ...HANDS[2][12] },
              { playerIndex: 3, ...HANDS[3][12] },
            ].slice(3 - (opts.trickCards ?? 2))
          : [],
      trickLeaderIndex: 2,
      trickNumber,
      currentPlayerIndex: playing ? mySeat : null,
      spadesBroken: false,
      tricks,
      lastTrick:
        playing && opts.completedTrick
          ? {
              winnerIndex: 2,
              leaderIndex: 1,
              cards: [1, 2, 3, 0].map((i) => ({ playerIndex: i, ...HANDS[i][12] })),
            }
          : null,
      trickPending: playing && opts.completedTrick === true,
    },
    legalBids: null,
    legalCards: [],
    dealerIndex: 3,
    handNumber: opts.status === 'WAITING' ? 0 : 2,
    handCommitment: opts.status === 'WAITING' ? null : COMMITMENT,
    team1TotalScore: opts.status === 'COMPLETED' ? 512 : 131,
    team2TotalScore: opts.status === 'COMPLETED' ? 342 : 162,
    team1Bags: 2,
    team2Bags: 7,
    playerScores: [131, 162, 131, 162],
    playerBags: [2, 7, 2, 7],
    winningTeam: opts.status === 'COMPLETED' ? 'team1' : null,
    winningPlayer: null,
    places: opts.status === 'COMPLETED' ? [1, 2, 1, 2] : null,
    payouts: null,
    gameMode: settings.gameMode,
    minPoints: -100,
    maxPoints: 500,
    buyIn: 100000,
    forcedBid: 'NONE',
    specialRules: { assassin: false, screamer: false },
    rules: { gameType: 'REGULAR', allowNil: true, allowBlindNil: opts.blindNil === true, coinAmount: 100000 },
    settings,
    spectators: [{ id: 'spec1', username: 'Railbird', avatar: null }],
    turnExpiresAt: playing ? Date.now() + 8_000 : null,
    seatReplacements:
      opts.emptySeats?.length && opts.status !== 'WAITING'
        ? [{ seatIndex: opts.emptySeats[0], expiresAt: Date.now() + 95_000 }]
        : [],
    lastHandSummary: opts.status === 'HAND_COMPLETED' ? summary : null,
    history: [],
    chat: [
      {
        id: 'c1',
        gameId: 'fixture-table',
        userId: 'system',
        userName: 'System',
        message: 'Marlowe joined the game.',
        timestamp: Date.now() - 60_000,
        isGameMessage: true,
      },
      {
        id: 'c2',
        gameId: 'fixture-table',
        userId: 'p1',
        userName: 'Marlowe',
        message: 'Good luck, have fun!',
        timestamp: Date.now() - 30_000,
        isGameMessage: true,
      },
    ],
    serverTime: Date.now(),
  };
}
