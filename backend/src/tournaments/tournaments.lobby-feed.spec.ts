/**
 * TournamentsLobbyFeed without a server: which commits change a lobby row (engine-built states), and the changes of
 * one window going out as one `tournaments_changed` to the lobby watchers' room.
 */
import { placesFromGame, TOURNAMENTS_CHANGED_MS, type TournamentState } from '@spades/common';
import { newTournament, startedWith, step, testConfig, testPlayer } from '../../../common/src/tournament/testkit';
import { LOBBY_VIEW_ROOM, type RealtimeService } from '../realtime/realtime.service';
import type { CommittedListener, TournamentsService } from './tournaments.service';
import type { StoredTournament } from './tournaments.store';
import { lobbyRowChanged, TournamentsLobbyFeed } from './tournaments.lobby-feed';

const stored = (state: TournamentState): StoredTournament =>
  ({ state, createdByName: 'Admin', ownerNode: 'local', ownerEpoch: 1, seq: 1 }) as unknown as StoredTournament;

describe('lobbyRowChanged', () => {
  it('is true for a new tournament, a registration and a new round; false for a table opening', () => {
    const open = newTournament(testConfig('SOLO', 8));
    expect(lobbyRowChanged(null, open)).toBe(true);
    const one = step(open, { type: 'registered', at: 1, players: [testPlayer(1)] });
    expect(lobbyRowChanged(open, one)).toBe(true);
    expect(lobbyRowChanged(one, one)).toBe(false);

    let s = startedWith(testConfig('SOLO', 8), 8);
    const [m0, m1] = s.rounds[0].matches;
    const opened = step(s, { type: 'match_opened', at: 200, matchId: m0.id, gameId: 'g0', seatDeadline: 9e9 });
    expect(lobbyRowChanged(s, opened)).toBe(false);
    s = opened;
    for (const m of [m0, m1]) {
      if (m !== m0) s = step(s, { type: 'match_opened', at: 200, matchId: m.id, gameId: 'g1', seatDeadline: 9e9 });
      s = step(s, { type: 'match_started', at: 300, matchId: m.id });
      const placed = placesFromGame(s, m.id, [1, 2, 3, 4], [500, 300, 200, 100]);
      s = step(s, { type: 'match_played', at: 400, matchId: m.id, ...placed });
    }
    // both semi-finals decided: the final is the round now
    expect(s.rounds).toHaveLength(2);
    expect(lobbyRowChanged(opened, s)).toBe(true);
  });
});

describe('TournamentsLobbyFeed', () => {
  afterEach(() => jest.useRealTimers());

  it('sends the changes of one window as one tournaments_changed to the lobby watchers', () => {
    jest.useFakeTimers();
    let listener: CommittedListener = () => undefined;
    const service = { onCommitted: (fn: CommittedListener) => (listener = fn) } as unknown as TournamentsService;
    const sent: unknown[][] = [];
    const realtime = { emitToRoom: (...args: unknown[]) => sent.push(args) } as unknown as RealtimeService;
    const feed = new TournamentsLobbyFeed(service, realtime);

    const a = newTournament(testConfig('SOLO', 8), 'ta');
    const b = newTournament(testConfig('SOLO', 8), 'tb');
    const a1 = step(a, { type: 'registered', at: 1, players: [testPlayer(1)] });
    listener(stored(a), [], null);
    listener(stored(a1), [], a);
    listener(stored(b), [], null);
    listener(stored(b), [], b); // nothing in the row changed
    jest.advanceTimersByTime(TOURNAMENTS_CHANGED_MS - 1);
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual([
      [
        LOBBY_VIEW_ROOM,
        'tournaments_changed',
        {
          tournaments: [
            { id: 'ta', status: 'REGISTERING' },
            { id: 'tb', status: 'REGISTERING' },
          ],
        },
      ],
    ]);
    listener(stored(b), [], b);
    jest.advanceTimersByTime(10 * TOURNAMENTS_CHANGED_MS);
    expect(sent).toHaveLength(1);
    feed.onModuleDestroy();
    listener(stored(a1), [], a);
    jest.advanceTimersByTime(10 * TOURNAMENTS_CHANGED_MS);
    expect(sent).toHaveLength(1);
  });
});
