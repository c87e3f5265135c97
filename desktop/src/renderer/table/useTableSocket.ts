/**
 * The table's socket side: the room subscription (seated players re-join their seat, everybody else watches;
 * again after every reconnect, followed by an HTTP resync) and the server events for this table, each turned
 * into a reducer event or a state change of `useLiveTable`. Nothing is sent from here but the room join.
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { isSpadeRuleError, type JoinGamePayload } from '@spades/common';
import { api } from '../lib/api';
import { mentionNotification, mentions, notifyDesktop } from '../lib/notifications';
import { play as playSound } from '../lib/sound';
import { normalizeChat } from '../lib/types';
import { useSession } from '../session/session';
import { useSocket, useSocketEvent, type SpecIdentity } from '../socket/socket';
import { useNotify } from '../components/ui';
import { handKey, isForTable } from './derived';
import { normalizeHandSummary, trickOf } from './model';
import type { LiveTable } from './useLiveTable';

export interface TableSocketOptions {
  gameId: string;
  /** Opened with ?spectate=1: watch even when a seat is free. */
  spectate: boolean;
  table: LiveTable;
  /** A new hand was dealt (the page resets its per-hand choices). */
  onNewHand: () => void;
}

export function useTableSocket({ gameId, spectate, table, onNewHand }: TableSocketOptions): void {
  const { user } = useSession();
  const sock = useSocket();
  const notify = useNotify();
  const navigate = useNavigate();
  const { live, dispatch, accept, load, gate, nextHand, setPendingCard, setBidSent } = table;

  // Subscribe to the table's room once the table is known and whenever the socket becomes ready (first time and
  // after every reconnect), then resync the full state over HTTP.
  const loaded = live.table !== null;
  const seated = live.table?.mySeat !== null && live.table?.mySeat !== undefined;
  const spectatePosted = useRef(false);
  useEffect(() => {
    if (!sock.ready || !user || !loaded) return;
    if (spectate || !seated) {
      if (spectate && !spectatePosted.current) {
        spectatePosted.current = true;
        void api
          .post(`/api/games/${encodeURIComponent(gameId)}/spectate`, {
            id: user.id,
            username: user.username,
            avatar: user.avatar ?? null,
          })
          .catch(() => undefined);
      }
      sock.emit('join_game_as_spectator', { gameId });
    } else {
      const join: JoinGamePayload & SpecIdentity = { gameId, userId: user.id, timestamp: Date.now() };
      sock.emit('join_game', join);
    }
    void load();
  }, [sock.ready, gameId, spectate, loaded, seated]);

  const mine = (p: unknown) => isForTable(p, gameId);
  useSocketEvent('game_update', (p: unknown) => mine(p) && accept(p));
  useSocketEvent('bidding_ready', (p) => mine(p) && gate.biddingReady());
  useSocketEvent('new_hand_started', (p) => {
    if (!mine(p)) return;
    nextHand.stop();
    dispatch({ type: 'new_hand_started', handNumber: p.handNumber, commitment: p.commitment ?? null });
    onNewHand();
    gate.enterHand(handKey(p.handNumber, p.commitment), { animate: true, ready: false, bidding: true });
  });
  useSocketEvent('trick_complete', (p: { trick?: { winnerIndex?: number; cards?: unknown } }) => {
    if (!mine(p) || !p.trick) return;
    dispatch({ type: 'trick_complete', winner: Number(p.trick.winnerIndex ?? 0), cards: trickOf(p.trick.cards) });
    playSound('win');
  });
  useSocketEvent('clear_trick', (p: unknown) => mine(p) && dispatch({ type: 'clear_trick' }));
  useSocketEvent('hand_completed', (p: unknown) => {
    if (!mine(p)) return;
    const s = normalizeHandSummary(p);
    if (s) dispatch({ type: 'hand_completed', summary: s, now: Date.now() });
  });
  useSocketEvent('game_over', (over) => {
    if (mine(over)) dispatch({ type: 'game_over', payload: over, now: Date.now() });
  });
  useSocketEvent('seat_replacement_started', (p: { seatIndex?: number; expiresAt?: number | string }) => {
    if (!mine(p) || typeof p.seatIndex !== 'number') return;
    const at = typeof p.expiresAt === 'number' ? p.expiresAt : Date.parse(String(p.expiresAt)) || Date.now() + 120_000;
    dispatch({ type: 'seat_replacement_started', seatIndex: p.seatIndex, expiresAt: at });
  });
  useSocketEvent('game_closed', (p: { reason?: unknown }) => {
    if (!mine(p)) return;
    // Whoever is still at the table (a spectator, a player sent away by the result timer) is told why.
    if (typeof p?.reason === 'string' && p.reason) notify(`The table was closed: ${p.reason}.`);
    navigate('/', { replace: true });
  });
  useSocketEvent('removed_from_table', (p) => {
    if (!mine(p)) return;
    notify(p.reason);
    navigate('/', { replace: true });
  });
  useSocketEvent('chat_message', (p) => {
    if (!mine(p)) return;
    const m = normalizeChat(p.message ?? p);
    if (!m) {
      console.warn('Ignoring chat message in an invalid format', p);
      return;
    }
    dispatch({ type: 'chat_message', message: m });
    // Desktop: your name mentioned by someone else (not system messages, not your own).
    if (user && m.userId !== user.id && m.userId !== 'system' && mentions(m.message, user.username)) {
      notifyDesktop(mentionNotification(m.username, m.message, 'game', gameId));
    }
  });
  useSocketEvent('error', (p: { message?: string; code?: string } | string) => {
    const msg = typeof p === 'string' ? p : (p?.message ?? '');
    if (!msg) return;
    // a spade rule refused the card: react to the typed code (never to the text); the bid state stays
    setPendingCard(null);
    if (!(typeof p === 'object' && isSpadeRuleError(p.code))) setBidSent(false);
    notify(msg);
  });
}
