/**
 * The live table's state on the page: the pure reducer (table-state.ts) fed by the HTTP snapshot and the socket,
 * plus what the reducer leaves to the page: the card and bid this player has sent and not yet seen taken, the deal
 * gate (useDealGate), the next-hand request (useNextHand), sounds, and why the table could not be opened.
 */
import { useCallback, useEffect, useReducer, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useNavigate } from 'react-router';
import { cardEquals, type Card } from '@spades/common';
import { api, ApiError, refusalOf, type Refusal } from '../lib/api';
import { play as playSound } from '../lib/sound';
import type { AppSocket } from '../socket/socket';
import { handKey } from './derived';
import { normalizeTable, type TableModel } from './model';
import { initialTableState, tableReducer, type LiveTableState, type TableEvent } from './table-state';
import { useDealGate, type DealGate } from './useDealGate';
import { useNextHand, type NextHand } from './useNextHand';

export interface LiveTable {
  live: LiveTableState;
  dispatch: Dispatch<TableEvent>;
  /** The latest table state, ahead of the render that shows it. */
  latest: () => TableModel | null;
  /** Takes a table state: from HTTP (a snapshot of the server now) or a socket `game_update`. */
  accept: (raw: unknown, source?: 'http' | 'socket') => void;
  /** GET the table (first load and resync). */
  load: () => Promise<void>;
  loadError: string | null;
  notFound: boolean;
  /** Issue #31: a private table this player may not open (the server's 403 message and code). */
  refused: Refusal | null;
  pendingCard: Card | null;
  setPendingCard: Dispatch<SetStateAction<Card | null>>;
  bidSent: boolean;
  setBidSent: Dispatch<SetStateAction<boolean>>;
  gate: DealGate;
  nextHand: NextHand;
}

export function useLiveTable(gameId: string, userId: string | undefined, socket: AppSocket | null): LiveTable {
  const navigate = useNavigate();
  const [live, dispatch] = useReducer(tableReducer, undefined, initialTableState);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [pendingCard, setPendingCard] = useState<Card | null>(null);
  const [bidSent, setBidSent] = useState(false);
  const gate = useDealGate();
  const nextHand = useNextHand(gameId, socket);
  const tableRef = useRef<TableModel | null>(null);
  tableRef.current = live.table;
  const { enterHand, resetHands } = gate;
  const { stop: stopNextHand, pendingFor } = nextHand;

  const accept = useCallback(
    (raw: unknown, source: 'http' | 'socket' = 'socket') => {
      const t = normalizeTable(raw, userId);
      if (!t || t.id !== gameId) return;
      const prev = tableRef.current;
      if (t.status === 'BIDDING' || t.status === 'PLAYING') {
        // Bidding is evidently open when the server's snapshot says BIDDING (bidding_ready was sent with the
        // deal), when a bid was already made, or when the hand is past bidding.
        const open =
          (source === 'http' && t.status === 'BIDDING') || t.status === 'PLAYING' || t.bids.some((b) => b !== null);
        // Animate only a deal we see happen (not the hand found on opening the table).
        enterHand(handKey(t.handNumber, t.handCommitment), {
          animate: !!prev && t.status === 'BIDDING',
          ready: open,
          bidding: t.status === 'BIDDING',
        });
      }
      const asked = pendingFor();
      if (asked !== null && (t.status !== 'HAND_COMPLETED' || t.handNumber > asked)) stopNextHand();
      if (t.status === 'WAITING' && prev && prev.status !== 'WAITING') resetHands();
      if (t.trick.length > (prev?.trick.length ?? 0) && prev?.handNumber === t.handNumber) playSound('card');
      if (t.bids.filter((b) => b !== null).length > (prev?.bids.filter((b) => b !== null).length ?? 0))
        playSound('bid');
      if (prev && (prev.turn !== t.turn || prev.status !== t.status)) {
        setPendingCard(null);
        setBidSent(false);
      }
      // The server took the pending card (it left the hand): when the player who completes a trick also wins it,
      // the turn stays with them, so the turn rule above alone would leave the next lead blocked.
      setPendingCard((pc) => (pc && !t.hand.some((h) => cardEquals(h, pc)) ? null : pc));
      // the state itself (dialogs, countdowns, chat, commitments): table-state.ts
      dispatch({ type: 'view', table: t, source, now: Date.now() });
      // the reducer runs on the next render: what `prev` is for the next state arriving before it
      tableRef.current = t;
    },
    [gameId, userId, enterHand, resetHands, stopNextHand, pendingFor],
  );

  const load = useCallback(async () => {
    try {
      const body = await api.get<unknown>(`/api/games/${encodeURIComponent(gameId)}`);
      if (!body) {
        setNotFound(true);
        return;
      }
      setLoadError(null);
      accept(body, 'http');
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        navigate('/', { replace: true });
        return;
      }
      if (e instanceof ApiError && e.status === 403) {
        setRefused(refusalOf(e, e.message));
        return;
      }
      setLoadError(e instanceof ApiError ? 'Failed to load game' : 'Failed to fetch game');
    }
  }, [gameId, accept, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  const latest = useCallback(() => tableRef.current, []);
  return {
    live,
    dispatch,
    latest,
    accept,
    load,
    loadError,
    notFound,
    refused,
    pendingCard,
    setPendingCard,
    bidSent,
    setBidSent,
    gate,
    nextHand,
  };
}
