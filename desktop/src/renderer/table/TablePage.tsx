import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Popover, Tabs } from 'radix-ui';
import { ArrowLeft, Info, Lock, Maximize, MessageSquare, Minimize, RotateCw, UserPlus, Users, Volume2, VolumeX, X } from 'lucide-react';
import { formatCoins, legalBids, legalCards, normalizeCard, cardEquals, cardCode, type Ack, type Card, type GameIdPayload, type JoinGamePayload, type MakeBidPayload, type PlayCardPayload } from '@spades/common';
import { useSession } from '../session/session';
import { useSocket, useSocketEvent, type SpecIdentity } from '../socket/socket';
import { api, ApiError, errorText } from '../lib/api';
import { isDesktopApp, isMobileOrTablet } from '../lib/platform';
import { mentionNotification, mentions, notifyDesktop } from '../lib/notifications';
import { modeBadge, normalizeChat } from '../lib/types';
import { useCountdown, useWindowSize } from '../lib/hooks';
import { isMuted, onMutedChange, play as playSound, setMuted } from '../lib/sound';
import { Avatar, ConfirmDialog, LoadingScreen, Logo, Modal, useNotify } from '../components/ui';
import { ChatPanel } from '../components/ChatPanel';
import { Hand } from './Hand';
import { SeatBadge, SpectatorEye } from './Seat';
import { BiddingPanel, BlindNilPrompt, HandSummaryDialog, ResultDialog } from './overlays';
import { normalizeHandSummary, normalizeTable, seatColor, toPlayerView, trickOf, type TableModel } from './model';
import { replayPath } from '../replay/paths';
import { InvitePanel } from './InvitePanel';
import { initialTableState, tableReducer } from './table-state';
import { TrickArea } from './TrickArea';
import { ScoreBoard } from './ScoreBoard';
import './table.css';

export * from './timing';
import { BLIND_PROMPT_DELAY_MS, DEAL_FALLBACK_MS, NEXT_HAND_ACK_TIMEOUT_MS, NEXT_HAND_RETRY_MS, START_WAIT_MS, TRICK_DISPLAY_MS } from './timing';

/** One hand of one game: its number plus its deal commitment (hand numbers restart with every game). */
export const handKey = (handNumber: number, commitment: string | null | undefined): string => `${handNumber}:${commitment ?? ''}`;

let actionSeq = 0;
const actionId = () => `${Date.now().toString(36)}-${(actionSeq++).toString(36)}`;

type AckResult = Parameters<Ack>[0];
type StartWarning = { kind: 'empty'; empty: number } | { kind: 'bots'; bots: number } | null;

export function TablePage() {
  const { gameId = '' } = useParams();
  const [params] = useSearchParams();
  const spectateParam = params.get('spectate') === '1';
  const navigate = useNavigate();
  const notify = useNotify();
  const { user } = useSession();
  const sock = useSocket();
  const { width, height } = useWindowSize();

  // The table's client state: a pure reducer over server events (table-state.ts); the rest here is UI mechanics.
  const [live, dispatch] = useReducer(tableReducer, undefined, initialTableState);
  const { table, trickBanner, summary, summaryDeadline, result, resultDeadline, replacements, chat, playAgainText } = live;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [pendingCard, setPendingCard] = useState<Card | null>(null);
  const [bidSent, setBidSent] = useState(false);
  const [blindPrompt, setBlindPrompt] = useState(false);
  const [blindDeclined, setBlindDeclined] = useState(false);
  const [chatMode, setChatMode] = useState<'game' | 'lobby'>('game');
  const [chatOpenMobile, setChatOpenMobile] = useState(false);
  const [startWarning, setStartWarning] = useState<StartWarning>(null);
  const [starting, setStarting] = useState(false);
  const [leaveConfirm, setLeaveConfirm] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [muted, setMutedState] = useState(isMuted());
  const [fullscreen, setFullscreen] = useState(false);
  // Deal animation and bidding gate (§4), order-independent: the animation runs once per new hand (handKey),
  // and bidding opens when bidding_ready for this hand has arrived AND the animation is done (or its 3 s
  // fallback fired). `dealAnim` = the hand being animated; `readyKey` = the hand bidding_ready was seen for.
  const [dealAnim, setDealAnim] = useState<string | null>(null);
  const [readyKey, setReadyKey] = useState<string | null>(null);
  const currentHand = useRef<{ key: string; bidding: boolean } | null>(null);
  const animatedHands = useRef(new Set<string>());
  const pendingReady = useRef(false);
  const dealing = dealAnim !== null;
  const tableRef = useRef<TableModel | null>(null);
  tableRef.current = table;

  useEffect(() => onMutedChange(setMutedState), []);

  /** A hand became known (new_hand_started, or a table state with a hand we had not seen). */
  const enterHand = useCallback((key: string, opts: { animate: boolean; ready: boolean; bidding: boolean }) => {
    const known = currentHand.current?.key === key;
    currentHand.current = { key, bidding: opts.bidding };
    if (!known && !animatedHands.current.has(key)) {
      animatedHands.current.add(key);
      setDealAnim(opts.animate ? key : null);
    }
    if (opts.ready || (!known && pendingReady.current)) {
      pendingReady.current = false;
      setReadyKey(key);
    }
  }, []);

  const resetHands = useCallback(() => {
    currentHand.current = null;
    animatedHands.current.clear();
    pendingReady.current = false;
    setDealAnim(null);
    setReadyKey(null);
  }, []);

  // ---- next hand after the summary (§4): emit start_new_hand with an ack; on failure reconnect and retry
  // after 1 s. The attempt lives in a ref so that re-renders (closing the summary) do not cancel it; it ends
  // on success, when the server has moved on (new_hand_started, a new hand or another status), or on unmount.
  const socketRef = useRef(sock.socket);
  socketRef.current = sock.socket;
  const nextHand = useRef<{ hand: number; timer: ReturnType<typeof setTimeout> | null } | null>(null);
  const stopNextHand = useCallback(() => {
    const a = nextHand.current;
    if (a?.timer) clearTimeout(a.timer);
    nextHand.current = null;
  }, []);
  const askNextHand = useCallback(
    (hand: number) => {
      if (nextHand.current?.hand === hand) return;
      stopNextHand();
      const attempt: { hand: number; timer: ReturnType<typeof setTimeout> | null } = { hand, timer: null };
      nextHand.current = attempt;
      const retry = () => {
        if (nextHand.current !== attempt) return;
        const s = socketRef.current;
        if (s && !s.connected) s.connect();
        attempt.timer = setTimeout(() => {
          attempt.timer = null;
          send();
        }, NEXT_HAND_RETRY_MS);
      };
      const send = () => {
        if (nextHand.current !== attempt) return;
        const s = socketRef.current;
        if (!s) return retry();
        // socket.io's typings do not decorate an optional ack with timeout()'s error argument: spell it out.
        const timed = s.timeout(NEXT_HAND_ACK_TIMEOUT_MS);
        const emitTimed = timed.emit as unknown as (ev: 'start_new_hand', p: GameIdPayload, ack: (err: Error | null, res?: AckResult) => void) => void;
        emitTimed.call(timed, 'start_new_hand', { gameId }, (err, res) => {
          if (nextHand.current !== attempt) return;
          if (err || !res || res.ok === false) return retry();
          nextHand.current = null;
        });
      };
      send();
    },
    [gameId, stopNextHand],
  );
  useEffect(() => stopNextHand, [stopNextHand]);

  // ---- state intake -------------------------------------------------------------------------------
  /** Takes a table state: from HTTP (a snapshot of the server now) or a socket `game_update`. */
  const accept = useCallback(
    (raw: unknown, source: 'http' | 'socket' = 'socket') => {
      const t = normalizeTable(raw, user?.id);
      if (!t || t.id !== gameId) return;
      const prev = tableRef.current;
      if (t.status === 'BIDDING' || t.status === 'PLAYING') {
        // Bidding is evidently open when the server's snapshot says BIDDING (bidding_ready was sent with the
        // deal), when a bid was already made, or when the hand is past bidding.
        const open = (source === 'http' && t.status === 'BIDDING') || t.status === 'PLAYING' || t.bids.some((b) => b !== null);
        // Animate only a deal we see happen (not the hand found on opening the table).
        enterHand(handKey(t.handNumber, t.handCommitment), { animate: !!prev && t.status === 'BIDDING', ready: open, bidding: t.status === 'BIDDING' });
      }
      if (nextHand.current && (t.status !== 'HAND_COMPLETED' || t.handNumber > nextHand.current.hand)) stopNextHand();
      if (t.status === 'WAITING' && prev && prev.status !== 'WAITING') resetHands();
      if (t.trick.length > (prev?.trick.length ?? 0) && prev?.handNumber === t.handNumber) playSound('card');
      if (t.bids.filter((b) => b !== null).length > (prev?.bids.filter((b) => b !== null).length ?? 0)) playSound('bid');
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
    [gameId, user?.id, enterHand, resetHands, stopNextHand],
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
      setLoadError(e instanceof ApiError ? 'Failed to load game' : 'Failed to fetch game');
    }
  }, [gameId, accept, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  // Subscribe to the table's room once the table is known and whenever the socket becomes ready (first time
  // and after every reconnect), then resync the full state over HTTP. Seated players re-join their seat;
  // everybody else watches (spectators and visitors).
  const loaded = table !== null;
  const seated = table?.mySeat !== null && table?.mySeat !== undefined;
  const spectatePosted = useRef(false);
  useEffect(() => {
    if (!sock.ready || !user || !loaded) return;
    if (spectateParam || !seated) {
      if (spectateParam && !spectatePosted.current) {
        spectatePosted.current = true;
        void api.post(`/api/games/${encodeURIComponent(gameId)}/spectate`, { id: user.id, username: user.username, avatar: user.avatar ?? null }).catch(() => undefined);
      }
      sock.emit('join_game_as_spectator', { gameId });
    } else {
      const join: JoinGamePayload & SpecIdentity = { gameId, userId: user.id, timestamp: Date.now() };
      sock.emit('join_game', join);
    }
    void load();
  }, [sock.ready, gameId, spectateParam, loaded, seated]);

  // ---- socket events ----------------------------------------------------------------------------
  const mine = (p: unknown) => {
    const id = p && typeof p === 'object' ? (p as { gameId?: unknown; id?: unknown }).gameId ?? (p as { id?: unknown }).id : undefined;
    return id === undefined || String(id) === gameId;
  };
  useSocketEvent('game_update', (p: unknown) => mine(p) && accept(p));
  useSocketEvent('bidding_ready', (p) => {
    if (!mine(p)) return;
    const cur = currentHand.current;
    // bidding_ready carries no hand number: it belongs to the hand being dealt, or (if it overtakes the
    // new hand's other events) to the next hand we learn about.
    if (cur?.bidding) setReadyKey(cur.key);
    else pendingReady.current = true;
  });
  useSocketEvent('new_hand_started', (p) => {
    if (!mine(p)) return;
    stopNextHand();
    dispatch({ type: 'new_hand_started', handNumber: p.handNumber, commitment: p.commitment ?? null });
    setBlindDeclined(false);
    enterHand(handKey(p.handNumber, p.commitment), { animate: true, ready: false, bidding: true });
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
    if (!s) return;
    dispatch({ type: 'hand_completed', summary: s, now: Date.now() });
  });
  useSocketEvent('game_over', (over) => {
    if (!mine(over)) return;
    dispatch({ type: 'game_over', payload: over, now: Date.now() });
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
  useSocketEvent('error', (p: { message?: string } | string) => {
    const msg = typeof p === 'string' ? p : p?.message ?? '';
    if (!msg) return;
    if (/spades/i.test(msg)) {
      setPendingCard(null);
      notify(msg);
      return;
    }
    setPendingCard(null);
    setBidSent(false);
    notify(msg);
  });

  // ---- derived -----------------------------------------------------------------------------------
  const view = useMemo(() => (table ? toPlayerView(table) : null), [table]);
  const myLegalCards = useMemo(() => (view ? legalCards(view) : []), [view]);
  const myLegalBids = useMemo(() => (view ? legalBids(view) : null), [view]);
  const mySeat = table?.mySeat ?? null;
  const spectating = spectateParam || mySeat === null;
  const isMyTurn = table !== null && mySeat !== null && table.turn === mySeat;
  // The host is the server's hostId (the seat 0 holder by the rules); seat 0 only when the server sends none.
  const hostSeat = table ? (table.hostId ? table.seats.find((s) => s?.id === table.hostId) ?? null : table.seats[0]) : null;
  const isHost = !!user && !!table && (table.hostId ? table.hostId === user.id : hostSeat?.id === user.id);

  // Desktop app: native notifications when the window is in the background (the main process decides).
  useEffect(() => {
    if (!isMyTurn || !table) return;
    notifyDesktop({ kind: 'your-turn', title: 'Your turn', body: table.status === 'BIDDING' ? 'Time to bid.' : 'Time to play a card.', gameId });
  }, [isMyTurn, table?.status, gameId]);
  const prevStatus = useRef<string | null>(null);
  useEffect(() => {
    const status = table?.status ?? null;
    if (prevStatus.current === 'WAITING' && status === 'BIDDING' && mySeat !== null && !spectateParam) {
      notifyDesktop({ kind: 'game-starting', title: 'Your game is starting', body: 'The cards are being dealt.', gameId });
    }
    prevStatus.current = status;
  }, [table?.status, mySeat, spectateParam, gameId]);

  // Deal animation: the Hand reports the last card landing (100 ms per card); a 3 s fallback forces completion.
  useEffect(() => {
    if (dealAnim === null) return;
    const t = setTimeout(() => setDealAnim((k) => (k === dealAnim ? null : k)), DEAL_FALLBACK_MS);
    return () => clearTimeout(t);
  }, [dealAnim]);
  const onDealt = useCallback(() => setDealAnim(null), []);
  const biddingOpen = !!table && table.status === 'BIDDING' && !dealing && readyKey === handKey(table.handNumber, table.handCommitment);

  // Blind nil prompt: 1 s after it becomes your turn (when blind nil is possible) and bidding is open.
  const blindPossible = isMyTurn && table?.status === 'BIDDING' && !!myLegalBids?.blindNil && table.handHidden && !blindDeclined;
  useEffect(() => {
    if (!blindPossible || !biddingOpen) {
      setBlindPrompt(false);
      return;
    }
    const t = setTimeout(() => setBlindPrompt(true), BLIND_PROMPT_DELAY_MS);
    return () => clearTimeout(t);
  }, [blindPossible, biddingOpen]);

  // Trick banner for 2 s (or until clear_trick).
  useEffect(() => {
    if (!trickBanner) return;
    const t = setTimeout(() => dispatch({ type: 'clear_trick' }), TRICK_DISPLAY_MS);
    return () => clearTimeout(t);
  }, [trickBanner]);

  const summaryLeft = useCountdown(summaryDeadline);
  const resultLeft = useCountdown(resultDeadline);
  const turnLeft = useCountdown(isMyTurn && table?.turnExpiresAt ? table.turnExpiresAt - table.clockOffset : null);

  // Hand summary countdown: at 0 ask for the next hand (idempotent on the server; the attempt retries on its
  // own, see askNextHand) and close the summary.
  useEffect(() => {
    if (summaryLeft !== 0 || !summary) return;
    askNextHand(summary.handNumber);
    dispatch({ type: 'summary_closed' });
  }, [summaryLeft]);

  // Result countdown: leave automatically at 0.
  useEffect(() => {
    if (resultLeft === 0 && result) void leave(true);
  }, [resultLeft]);

  // Full screen on mobile/tablet (web only): toggle, and automatically 1 s after load.
  const mobile = isMobileOrTablet();
  useEffect(() => {
    const on = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    if (mobile && !isDesktopApp()) {
      const t = setTimeout(() => {
        void document.documentElement.requestFullscreen?.().catch(() => undefined);
      }, 1000);
      return () => {
        clearTimeout(t);
        document.removeEventListener('fullscreenchange', on);
      };
    }
    return () => document.removeEventListener('fullscreenchange', on);
  }, [mobile]);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  // ---- actions -----------------------------------------------------------------------------------
  const leave = async (auto = false) => {
    if (user) {
      const leavePayload: GameIdPayload & SpecIdentity = { gameId, userId: user.id };
      sock.emit('leave_game', leavePayload);
      await api.post(`/api/games/${encodeURIComponent(gameId)}/leave`, { id: user.id }).catch(() => undefined);
    }
    if (!auto) setLeaveConfirm(false);
    navigate('/');
  };

  const onLeaveClick = () => {
    if (!spectating && table && table.status !== 'WAITING' && table.status !== 'COMPLETED') setLeaveConfirm(true);
    else void leave();
  };

  const playCard = (c: Card) => {
    if (!isMyTurn || pendingCard || !user) return;
    setPendingCard(c);
    const payload: PlayCardPayload & SpecIdentity = { gameId, userId: user.id, card: cardCode(c), actionId: actionId() };
    sock.emit('play_card', payload);
  };

  const bid = (b: number, blind = false) => {
    if (!user || bidSent) return;
    setBidSent(true);
    setBlindPrompt(false);
    const payload: MakeBidPayload & SpecIdentity = { gameId, userId: user.id, bid: b, blind, actionId: actionId() };
    sock.emit('make_bid', payload);
  };

  const declineBlind = () => {
    setBlindPrompt(false);
    setBlindDeclined(true);
    sock.emit('reveal_cards', { gameId, actionId: actionId() });
  };

  const joinSeat = async (seat: number) => {
    if (!user) return;
    try {
      const res = await api.post<{ error?: string } | null>(`/api/games/${encodeURIComponent(gameId)}/join`, {
        id: user.id,
        username: user.username,
        avatar: user.avatar ?? null,
        seat,
      });
      if (res && typeof res === 'object' && res.error) throw new Error(res.error);
      if (spectateParam) navigate(`/table/${encodeURIComponent(gameId)}`, { replace: true });
      const join: JoinGamePayload & SpecIdentity = { gameId, userId: user.id, timestamp: Date.now() };
      sock.emit('join_game', join);
      accept(res, 'http');
      void load();
    } catch (e) {
      // §8: join failure at the table is logged only.
      console.error(`Failed to join game: ${errorText(e, 'Unknown error')}`);
    }
  };

  const inviteBot = async (seatIndex: number) => {
    if (!user || !table) return;
    const mid = table.status !== 'WAITING';
    try {
      const res = await api.post<{ error?: string } | null>(`/api/games/${encodeURIComponent(gameId)}/${mid ? 'invite-bot-midgame' : 'invite-bot'}`, { seatIndex, requesterId: user.id });
      if (res && typeof res === 'object' && res.error) throw new Error(res.error);
      accept(res, 'http');
    } catch {
      notify('Failed to invite bot');
    }
  };

  /** Host, before the start (issue #24): the player loses their seat or place and their admission to the table. */
  const removePlayer = async (userId: string, username: string) => {
    try {
      await api.post(`/api/games/${encodeURIComponent(gameId)}/remove-player`, { userId });
      notify(`${username} was removed from the table`);
    } catch (e) {
      notify(errorText(e, 'Failed to remove the player'));
    }
  };

  const removeBot = async (seatIndex: number) => {
    if (!user || !table) return;
    const mid = table.status !== 'WAITING';
    try {
      const res = await api.post<{ error?: string } | null>(`/api/games/${encodeURIComponent(gameId)}/${mid ? 'remove-bot-midgame' : 'remove-bot'}`, { seatIndex, requesterId: user.id });
      if (res && typeof res === 'object' && res.error) {
        notify(`Failed to remove bot: ${res.error}`);
        return;
      }
      accept(res, 'http');
    } catch (e) {
      notify(e instanceof ApiError ? `Failed to remove bot: ${e.message}` : 'Failed to remove bot');
    }
  };

  const doStart = async () => {
    setStartWarning(null);
    setStarting(true);
    const t0 = tableRef.current;
    try {
      if (t0) {
        for (let i = 0; i < 4; i++) if (!t0.seats[i]) await inviteBot(i);
      }
      if (!sock.emit('start_game', { gameId })) return;
      const deadline = Date.now() + START_WAIT_MS;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        if (tableRef.current && tableRef.current.status !== 'WAITING') return;
      }
      notify('Timeout waiting for game to start');
    } finally {
      setStarting(false);
    }
  };

  const onStartClick = () => {
    if (!table) return;
    const empty = table.seats.filter((s) => !s).length;
    const bots = table.seats.filter((s) => s?.type === 'bot').length;
    if (empty > 0) setStartWarning({ kind: 'empty', empty });
    else if (bots > 0) setStartWarning({ kind: 'bots', bots });
    else void doStart();
  };

  const playAgain = () => {
    if (!table) return;
    sock.emit('play_again', { gameId });
    const humans = table.seats.filter((s) => s?.type === 'human').length;
    dispatch({ type: 'play_again', text: humans > 1 ? 'Waiting for other players...' : 'Starting new game...' });
  };

  const sendChat = (text: string) => {
    if (!user) return;
    if (chatMode === 'game') {
      if (!sock.ready) return;
      sock.emit('chat_message', { gameId, message: text });
    } else {
      if (!sock.authenticated) return;
      const lobbyMessage: { message: string } & SpecIdentity = { userId: user.id, username: user.username, message: text, timestamp: Date.now() };
      sock.emit('lobby_chat_message', lobbyMessage);
    }
  };

  // ---- render ------------------------------------------------------------------------------------
  if (loadError) return <CenterMessage text={`Error: ${loadError}`} onBack={() => navigate('/')} />;
  if (notFound) return <CenterMessage text="Game not found" onBack={() => navigate('/')} />;
  if (!table) return <LoadingScreen text="Loading table…" />;

  const scale = Math.max(0.6, Math.min(1, width / 1200));
  const narrow = width < 640 || height <= 500;
  // §2: whenever the window is taller than wide (phones, tablets and narrow desktop windows alike).
  const portrait = height > width;
  const badge = modeBadge({ forcedBid: table.forcedBid, gameType: table.settings.biddingOption === 'WHIZ' ? 'WHIZ' : table.settings.biddingOption === 'MIRROR' ? 'MIRROR' : 'REGULAR' });
  const canAct = !spectating && mySeat !== null;
  const showBidding = canAct && biddingOpen && isMyTurn && !bidSent && !blindPrompt && !(table.handHidden && myLegalBids?.blindNil && !blindDeclined);
  const hostName = hostSeat?.username ?? 'the host';
  const nowMs = Date.now();
  const displayTrick = trickBanner ? trickBanner.cards : table.trickPending && table.lastTrick ? table.lastTrick.cards : table.trick;
  const winnerSeat = trickBanner?.winner ?? (table.trickPending ? table.lastTrick?.winnerIndex ?? null : null);
  const oppositeOf = (s: number) => (s + 2) % 4;
  /** Issue #12: an empty seat held for an invited player other than me (their name), else null. */
  const heldFor = (s: number): string | null => {
    const inv = (table.invitations ?? []).find((i) => i.seatIndex === s && i.reservedUntil !== null && i.reservedUntil - table.clockOffset > nowMs);
    return inv && inv.userId !== user?.id && !table.seats[s] ? inv.username : null;
  };
  const mayRemoveBot = (s: number) => {
    if (!user || !table.seats[s] || table.seats[s]?.type !== 'bot') return false;
    if (table.status === 'WAITING') return isHost;
    if (table.status === 'COMPLETED') return false;
    const opp = table.seats[oppositeOf(s)];
    return opp && opp.type === 'human' ? opp.id === user.id : isHost;
  };

  const scores = <ScoreBoard table={table} />;

  const details = (
    <Popover.Root>
      <Popover.Trigger className="icon-btn" aria-label="Table details">
        <Info size={18} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" sideOffset={6} align="start">
          <h3 className="h4" style={{ marginTop: 0 }}>
            Table details
          </h3>
          <div className="stat-row">
            <span className="muted">Mode</span>
            <span>{table.gameMode}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Bidding</span>
            <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Points</span>
            <span className="num">
              {table.minPoints} / {table.maxPoints}
            </span>
          </div>
          <div className="stat-row">
            <span className="muted">Buy-in</span>
            <span className="gold num">{formatCoins(table.buyIn)}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Nil / Blind nil</span>
            <span>
              {table.settings.specialRules.allowNil ? 'yes' : 'no'} / {table.settings.specialRules.allowBlindNil ? 'yes' : 'no'}
            </span>
          </div>
          <div className="stat-row">
            <span className="muted">Special</span>
            <span>{table.settings.specialRules.assassin ? 'ASSASSIN' : table.settings.specialRules.screamer ? 'SCREAMER' : '—'}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Rated</span>
            <span>{table.rated ? 'yes' : 'no'}</span>
          </div>
          <div className="stat-row">
            <span className="muted">Hand</span>
            <span className="num">{table.handNumber || '—'}</span>
          </div>
          {table.handCommitment && (
            <div className="stat-row">
              <span className="muted">Deal commitment</span>
              <span className="mono small" title={table.handCommitment}>
                {table.handCommitment.slice(0, 16)}…
              </span>
            </div>
          )}
          <Popover.Arrow className="popover-arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );

  const waitingPanel =
    table.status === 'WAITING' ? (
      <div className="table-panel waiting-panel" role="region" aria-label="Waiting for players">
        <h2 className="panel-title">{isHost ? 'Your table' : 'Waiting for Host'}</h2>
        <p className="muted small">
          {table.seats.filter(Boolean).length}/4 seated · buy-in <span className="gold">{formatCoins(table.buyIn)}</span>
        </p>
        {isHost ? (
          <button type="button" className="btn btn-primary" onClick={onStartClick} disabled={starting}>
            {starting ? 'Starting…' : 'Start Game'}
          </button>
        ) : (
          <p className="muted">Only {hostName} can start</p>
        )}
      </div>
    ) : null;

  const panelPlayers = [
    ...table.seats.map((s, i) => (s ? { key: `s${i}`, id: s.id, username: s.username, avatar: s.avatar, seat: i, bot: s.type === 'bot', spectator: false } : null)).filter(Boolean),
    ...table.spectators.map((s) => ({ key: `sp${s.id}`, id: s.id, username: s.username, avatar: s.avatar, seat: -1, bot: false, spectator: true })),
  ] as { key: string; id: string; username: string; avatar: string | null; seat: number; bot: boolean; spectator: boolean }[];

  const chatPanel = (
    <aside className={`table-side ${narrow ? (chatOpenMobile ? 'open' : 'closed') : ''}`} aria-label="Table chat and players">
      {narrow && (
        <button type="button" className="icon-btn side-close" aria-label="Close chat" onClick={() => setChatOpenMobile(false)}>
          <X size={18} />
        </button>
      )}
      <Tabs.Root defaultValue="chat" className="tabs fill">
        <Tabs.List className="tab-list" aria-label="Table panel">
          <Tabs.Trigger value="chat" className="tab">
            <MessageSquare size={16} /> Chat
          </Tabs.Trigger>
          <Tabs.Trigger value="players" className="tab">
            <Users size={16} /> Players
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="chat" className="tab-content fill">
          <ChatPanel
            header={
              <div className="segmented small chat-toggle" role="radiogroup" aria-label="Chat room">
                <button type="button" role="radio" aria-checked={chatMode === 'game'} className={chatMode === 'game' ? 'active' : ''} onClick={() => setChatMode('game')}>
                  Game chat
                </button>
                <button type="button" role="radio" aria-checked={chatMode === 'lobby'} className={chatMode === 'lobby' ? 'active' : ''} onClick={() => setChatMode('lobby')}>
                  Lobby chat
                </button>
              </div>
            }
            messages={chatMode === 'game' ? chat : sock.lobbyMessages}
            onSend={sendChat}
            canSend={chatMode === 'game' ? sock.ready : sock.authenticated}
            selfId={user?.id}
            placeholder={chatMode === 'game' ? 'Message the table…' : 'Message the lobby…'}
          />
        </Tabs.Content>
        <Tabs.Content value="players" className="tab-content fill">
          <ul className="player-list pad">
            {panelPlayers.map((p) => (
              <li key={p.key} className="player-row">
                <span className="player-main static">
                  <Avatar src={p.avatar} id={p.id} name={p.username} size={30} isBot={p.bot} />
                  <span className="player-name">{p.username}</span>
                  {p.spectator ? (
                    <SpectatorEye />
                  ) : (
                    <span className={`dot team-${seatColor(table.gameMode, p.seat)}`} aria-label={`Seat ${p.seat + 1}`} />
                  )}
                  {isHost && table.status === 'WAITING' && !p.bot && p.id !== user?.id && (
                    <button type="button" className="link-danger" onClick={() => void removePlayer(p.id, p.username)} aria-label={`Remove ${p.username} from the table`}>
                      Remove
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </aside>
  );

  return (
    <div className="table-page" style={{ ['--scale' as string]: scale }}>
      <header className="table-top">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onLeaveClick} aria-label={spectating ? 'Back to lobby' : 'Leave table'}>
          <ArrowLeft size={16} /> <span className="hide-narrow">{spectating ? 'Lobby' : 'Leave'}</span>
        </button>
        <Logo size={26} />
        <div className="table-title">
          <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
          <span className="badge badge-dim">{table.gameMode}</span>
          <span className="gold num hide-narrow">{formatCoins(table.buyIn)}</span>
          {spectating && <span className="badge badge-neutral">SPECTATING</span>}
          {table.private && (
            <span className="badge badge-outline" title="Private table: invitation only">
              <Lock size={11} aria-hidden="true" /> PRIVATE
            </span>
          )}
        </div>
        {details}
        <div className="table-top-right">
          {mySeat !== null && table.status !== 'COMPLETED' && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setInviteOpen(true)} aria-label="Invite players">
              <UserPlus size={15} /> <span className="hide-narrow">Invite</span>
            </button>
          )}
          {scores}
          <button type="button" className="icon-btn" aria-label={muted ? 'Unmute sounds' : 'Mute sounds'} aria-pressed={muted} onClick={() => setMuted(!muted)}>
            {muted ? <VolumeX size={18} /> : <Volume2 size={18} />}
          </button>
          {mobile && !isDesktopApp() && (
            <button type="button" className="icon-btn" aria-label={fullscreen ? 'Exit full screen' : 'Full screen'} onClick={toggleFullscreen}>
              {fullscreen ? <Minimize size={18} /> : <Maximize size={18} />}
            </button>
          )}
          {narrow && (
            <button type="button" className="icon-btn" aria-label="Open chat" onClick={() => setChatOpenMobile(true)}>
              <MessageSquare size={18} />
            </button>
          )}
        </div>
      </header>
      <div className="table-body">
        <main className="felt-wrap" aria-label="Card table">
          <div className="felt">
            {[0, 1, 2, 3].map((s) => (
              <SeatBadge
                key={s}
                table={table}
                seat={s}
                player={table.seats[s]}
                isTurn={table.turn === s && (table.status === 'BIDDING' || table.status === 'PLAYING')}
                turnSecondsLeft={s === mySeat && isMyTurn ? turnLeft : null}
                replacementLeft={!table.seats[s] && replacements[s] ? Math.max(0, Math.ceil((replacements[s] - nowMs) / 1000)) : null}
                heldFor={heldFor(s)}
                canJoin={!table.seats[s] && !heldFor(s) && mySeat === null && !spectateParam && (table.status === 'WAITING' || !!replacements[s])}
                onJoin={() => void joinSeat(s)}
                canInviteBot={!table.seats[s] && isHost && (table.status === 'WAITING' || !!replacements[s])}
                onInviteBot={() => void inviteBot(s)}
                canRemoveBot={mayRemoveBot(s)}
                onRemoveBot={() => void removeBot(s)}
              />
            ))}
            <TrickArea
              cards={displayTrick}
              winner={winnerSeat}
              mySeat={mySeat}
              banner={trickBanner ? (table.seats[trickBanner.winner]?.username ?? `Seat ${trickBanner.winner + 1}`) + ' wins the trick!' : null}
            />
            {waitingPanel}
            {table.status === 'BIDDING' && canAct && !isMyTurn && biddingOpen && (
              <div className="turn-hint" role="status">
                {table.turn !== null ? `${table.seats[table.turn]?.username ?? 'Player'} is bidding…` : 'Bidding…'}
              </div>
            )}
            {blindPrompt && <BlindNilPrompt onYes={() => bid(0, true)} onNo={declineBlind} />}
            {showBidding && myLegalBids && <BiddingPanel bids={myLegalBids.bids} onBid={(b) => bid(b)} disabled={bidSent} />}
            {canAct && table.status === 'PLAYING' && isMyTurn && !trickBanner && !table.trickPending && (
              <div className="turn-hint you" role="status">
                Your turn
              </div>
            )}
            {canAct && table.handHidden && table.status === 'BIDDING' && !blindPrompt && !isMyTurn && (
              <button type="button" className="btn btn-secondary btn-sm look-btn" onClick={declineBlind}>
                Look at my cards
              </button>
            )}
          </div>
          {canAct && (
            <div className="hand-wrap">
              <Hand
                cards={table.hand}
                hidden={table.handHidden}
                hiddenCount={table.handCounts[mySeat ?? 0] ?? 0}
                legal={myLegalCards}
                canPlay={isMyTurn && table.status === 'PLAYING' && !table.trickPending && !trickBanner}
                pendingCard={pendingCard}
                onPlay={playCard}
                dealKey={`h${table.handNumber}`}
                width={(narrow ? width : width - Math.min(420, Math.max(280, width * 0.3))) - 32}
                cardWidth={88 * scale}
                animate={dealing}
                onDealt={onDealt}
              />
            </div>
          )}
        </main>
        {chatPanel}
      </div>
      {sock.error && <div className="conn-banner" role="status">{sock.error}</div>}
      {summary && !result && (
        <HandSummaryDialog
          summary={summary}
          secondsLeft={summaryLeft}
          gameMode={table.gameMode}
          seats={table.seats}
          commitment={live.commitments[summary.handNumber] ?? summary.commitment}
          myDealt={live.dealt[summary.handNumber] ?? null}
          mySeat={mySeat}
          onClose={() => undefined}
        />
      )}
      {result && (
        <ResultDialog
          result={result}
          secondsLeft={resultLeft}
          seats={table.seats}
          mySeat={mySeat}
          gameMode={table.gameMode}
          settings={table.settings}
          waitingText={playAgainText}
          onPlayAgain={playAgain}
          onLeave={() => void leave()}
          replayHref={replayPath(gameId)}
          ratingGame={{ gameId: table.id, gameNumber: table.gameNumber }}
        />
      )}
      <Modal
        open={startWarning?.kind === 'empty'}
        onOpenChange={(o) => !o && setStartWarning(null)}
        title="Empty seats"
        description={startWarning?.kind === 'empty' ? `Coin games require 4 human players. You have ${startWarning.empty} empty seat(s).` : ''}
        className="modal-sm"
        hideClose
      >
        <p>If you continue, the game will start with bot players in all empty seats and the game will not be rated.</p>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => setStartWarning(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void doStart()}>
            Play with Bots
          </button>
        </div>
      </Modal>
      <Modal
        open={startWarning?.kind === 'bots'}
        onOpenChange={(o) => !o && setStartWarning(null)}
        title="Bot Players Detected"
        description={startWarning?.kind === 'bots' ? `This table has ${startWarning.bots} bot player(s). The game will start, but it will not be rated.` : ''}
        className="modal-sm"
        hideClose
      >
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => setStartWarning(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void doStart()}>
            Start Game
          </button>
        </div>
      </Modal>
      {inviteOpen && (
        <InvitePanel
          open
          onOpenChange={setInviteOpen}
          gameId={gameId}
          isHost={isHost}
          isPrivate={table.private === true}
          canHoldSeat={table.status === 'WAITING' && table.seats.some((s) => !s)}
          members={[...table.seats.map((s) => s?.id ?? ''), ...table.spectators.map((s) => s.id)].filter(Boolean)}
          pending={table.invitations ?? []}
        />
      )}
      <ConfirmDialog
        open={leaveConfirm}
        title="Leave the table?"
        message={table.rated ? 'The game is in progress: leaving forfeits your buy-in.' : 'The game is in progress: a bot will take your seat.'}
        yesLabel="Leave"
        noLabel="Stay"
        danger
        onYes={() => void leave()}
        onNo={() => setLeaveConfirm(false)}
      />
      {portrait && (
        <div className="rotate-overlay" role="alertdialog" aria-label="Please Rotate Your Device">
          <RotateCw size={48} aria-hidden="true" />
          <p>Please Rotate Your Device</p>
        </div>
      )}
    </div>
  );
}

function CenterMessage({ text, onBack }: { text: string; onBack: () => void }) {
  return (
    <div className="loading-screen">
      <Logo size={48} />
      <p className="h3">{text}</p>
      <button type="button" className="btn btn-secondary" onClick={onBack}>
        Back to lobby
      </button>
    </div>
  );
}

// Re-exported for tests.
export { normalizeCard, cardEquals };
