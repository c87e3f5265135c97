/**
 * What a player does at the table, one channel per action: the moves of a hand and the table's live events go
 * over the socket (play_card, make_bid, reveal_cards, start_game, play_again, chat); the seat and membership
 * changes go over HTTP (join a seat, leave, invite / remove a bot, remove a player) and the answer is the table's
 * new state. The room subscription that follows a seat change is useTableSocket's.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { cardCode, type Card, type MakeBidPayload, type PlayCardPayload } from '@spades/common';
import { api, ApiError, errorText } from '../lib/api';
import { useSession } from '../session/session';
import { useSocket, type SpecIdentity } from '../socket/socket';
import { useNotify } from '../components/ui';
import { playAgainText, startWarningOf, type StartWarning } from './derived';
import { START_WAIT_MS } from './timing';
import type { LiveTable } from './useLiveTable';

let actionSeq = 0;
const actionId = () => `${Date.now().toString(36)}-${(actionSeq++).toString(36)}`;

/** The server's answer to a seat change: the table, or (older servers) `{ error }`. */
type SeatAnswer = { error?: string } | null;

export interface TableActions {
  /** Leave the table (HTTP), then the lobby. */
  leave: () => Promise<void>;
  playCard: (c: Card) => void;
  bid: (b: number, blind?: boolean) => void;
  /** Blind nil declined: the cards are shown. */
  revealCards: () => void;
  joinSeat: (seat: number) => Promise<void>;
  inviteBot: (seat: number) => Promise<void>;
  removeBot: (seat: number) => Promise<void>;
  /** Host, before the start (issue #24): the player loses their seat or place and their admission to the table. */
  removePlayer: (userId: string, username: string) => Promise<void>;
  /** Start, or first the warning about empty seats / bots. */
  askStart: () => void;
  /** Start now: bots into the empty seats, start_game, then wait for the deal. */
  start: () => Promise<void>;
  startWarning: StartWarning;
  closeStartWarning: () => void;
  starting: boolean;
  playAgain: () => void;
  sendChat: (text: string, room: 'game' | 'lobby') => void;
}

export function useTableActions(gameId: string, spectate: boolean, table: LiveTable): TableActions {
  const { user } = useSession();
  const sock = useSocket();
  const notify = useNotify();
  const navigate = useNavigate();
  const [startWarning, setStartWarning] = useState<StartWarning>(null);
  const [starting, setStarting] = useState(false);
  const { live, latest, accept, load, pendingCard, setPendingCard, bidSent, setBidSent, dispatch } = table;
  const t = live.table;
  const path = (rest = '') => `/api/games/${encodeURIComponent(gameId)}${rest}`;
  const isMyTurn = t !== null && t.mySeat !== null && t.turn === t.mySeat;

  const leave = async () => {
    if (user) await api.post(path('/leave'), { id: user.id }).catch(() => undefined);
    navigate('/');
  };

  const playCard = (c: Card) => {
    if (!isMyTurn || pendingCard || !user) return;
    setPendingCard(c);
    const payload: PlayCardPayload & SpecIdentity = {
      gameId,
      userId: user.id,
      card: cardCode(c),
      actionId: actionId(),
    };
    sock.emit('play_card', payload);
  };

  const bid = (b: number, blind = false) => {
    if (!user || bidSent) return;
    setBidSent(true);
    const payload: MakeBidPayload & SpecIdentity = { gameId, userId: user.id, bid: b, blind, actionId: actionId() };
    sock.emit('make_bid', payload);
  };

  const revealCards = () => {
    sock.emit('reveal_cards', { gameId, actionId: actionId() });
  };

  const joinSeat = async (seat: number) => {
    if (!user) return;
    try {
      const res = await api.post<SeatAnswer>(path('/join'), {
        id: user.id,
        username: user.username,
        avatar: user.avatar ?? null,
        seat,
      });
      if (res && typeof res === 'object' && res.error) throw new Error(res.error);
      if (spectate) navigate(`/table/${encodeURIComponent(gameId)}`, { replace: true });
      // seated now: useTableSocket moves this socket from watching to the seat's room and resyncs
      accept(res, 'http');
      void load();
    } catch (e) {
      // §8: join failure at the table is logged only.
      console.error(`Failed to join game: ${errorText(e, 'Unknown error')}`);
    }
  };

  const inviteBot = async (seatIndex: number) => {
    const now = latest();
    if (!user || !now) return;
    const mid = now.status !== 'WAITING';
    try {
      const res = await api.post<SeatAnswer>(path(mid ? '/invite-bot-midgame' : '/invite-bot'), {
        seatIndex,
        requesterId: user.id,
      });
      if (res && typeof res === 'object' && res.error) throw new Error(res.error);
      accept(res, 'http');
    } catch {
      notify('Failed to invite bot');
    }
  };

  const removeBot = async (seatIndex: number) => {
    const now = latest();
    if (!user || !now) return;
    const mid = now.status !== 'WAITING';
    try {
      const res = await api.post<SeatAnswer>(path(mid ? '/remove-bot-midgame' : '/remove-bot'), {
        seatIndex,
        requesterId: user.id,
      });
      if (res && typeof res === 'object' && res.error) {
        notify(`Failed to remove bot: ${res.error}`);
        return;
      }
      accept(res, 'http');
    } catch (e) {
      notify(e instanceof ApiError ? `Failed to remove bot: ${e.message}` : 'Failed to remove bot');
    }
  };

  const removePlayer = async (userId: string, username: string) => {
    try {
      await api.post(path('/remove-player'), { userId });
      notify(`${username} was removed from the table`);
    } catch (e) {
      notify(errorText(e, 'Failed to remove the player'));
    }
  };

  const start = async () => {
    setStartWarning(null);
    setStarting(true);
    const t0 = latest();
    try {
      if (t0) {
        for (let i = 0; i < 4; i++) if (!t0.seats[i]) await inviteBot(i);
      }
      if (!sock.emit('start_game', { gameId })) return;
      const deadline = Date.now() + START_WAIT_MS;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        const now = latest();
        if (now && now.status !== 'WAITING') return;
      }
      notify('Timeout waiting for game to start');
    } finally {
      setStarting(false);
    }
  };

  const askStart = () => {
    if (!t) return;
    const warning = startWarningOf(t);
    if (warning) setStartWarning(warning);
    else void start();
  };

  const playAgain = () => {
    if (!t) return;
    sock.emit('play_again', { gameId });
    dispatch({ type: 'play_again', text: playAgainText(t) });
  };

  const sendChat = (text: string, room: 'game' | 'lobby') => {
    if (!user) return;
    if (room === 'game') {
      if (sock.ready) sock.emit('chat_message', { gameId, message: text });
      return;
    }
    if (!sock.authenticated) return;
    const lobbyMessage: { message: string } & SpecIdentity = {
      userId: user.id,
      username: user.username,
      message: text,
      timestamp: Date.now(),
    };
    sock.emit('lobby_chat_message', lobbyMessage);
  };

  return {
    leave,
    playCard,
    bid,
    revealCards,
    joinSeat,
    inviteBot,
    removeBot,
    removePlayer,
    askStart,
    start,
    startWarning,
    closeStartWarning: () => setStartWarning(null),
    starting,
    playAgain,
    sendChat,
  };
}
