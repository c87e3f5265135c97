/**
 * The table page: layout over the table's hooks and panels. The state is useLiveTable's (the pure reducer in
 * table-state.ts plus the deal gate and the next-hand request), the socket side useTableSocket's, the player's
 * actions useTableActions' (one channel each), and what is shown is derived by derived.ts; this file only decides
 * what goes where on the screen and runs the page's timers (trick banner, summary and result countdowns).
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { X } from 'lucide-react';
import { cardEquals, legalBids, legalCards, normalizeCard } from '@spades/common';
import { useSession } from '../session/session';
import { useSocket } from '../socket/socket';
import { isMobileOrTablet } from '../lib/platform';
import { modeBadge } from '../lib/types';
import { useCountdown, useWindowSize } from '../lib/hooks';
import { ConfirmDialog, LoadingScreen, Logo, useNotify } from '../components/ui';
import { useBlockedIds } from '../lib/blocked';
import { useSocialActions } from '../components/social';
import { usePlayerOptions } from '../lib/options';
import { replayPath } from '../replay/paths';
import { Hand } from './Hand';
import { SeatBadge } from './Seat';
import { BiddingPanel, BlindNilPrompt, HandSummaryDialog, ResultDialog } from './overlays';
import { toPlayerView } from './model';
import {
  biddingType,
  displayedTrick,
  heldFor,
  hostSeatOf,
  isHostOf,
  mayRemoveBot,
  replacementSecondsLeft,
} from './derived';
import { InvitePanel } from './InvitePanel';
import { InvitationNeeded } from './InviteGate';
import { TrickArea } from './TrickArea';
import { TableHeader } from './TableHeader';
import { TableSide } from './TableSide';
import { WaitingPanel } from './WaitingPanel';
import { StartWarnings } from './StartWarnings';
import { useTurnClock } from './useTurnClock';
import { useTurnTimeout } from './useTurnTimeout';
import { useLiveTable } from './useLiveTable';
import { useTableSocket } from './useTableSocket';
import { useTableActions } from './useTableActions';
import { useBlindNil } from './useBlindNil';
import { useFullscreen } from './useFullscreen';
import { useTableNotices } from './useTableNotices';
import { RotateOverlay, usePlayInPortrait } from './portrait';
import './table.css';
// issue #31 (part B): claim, last trick, bid hint, quick chat, options
import { ClaimButton } from './ClaimButton';
import { LastTrick } from './LastTrick';
import { BidHint } from './BidHint';
import { QuickChat, QuickChatBubbles } from './QuickChat';
import './options.css';
import { TRICK_DISPLAY_MS } from './timing';

export * from './timing';
export { handKey } from './derived';

export function TablePage() {
  const { gameId = '' } = useParams();
  const [params] = useSearchParams();
  const spectateParam = params.get('spectate') === '1';
  const navigate = useNavigate();
  const notify = useNotify();
  const { user } = useSession();
  const sock = useSocket();
  const playerOptions = usePlayerOptions();
  const { width, height } = useWindowSize();
  /** Issue #31: players this user blocks; their lines already on screen are hidden too. */
  const blockedSenders = useBlockedIds();
  /** Ruling 14 / issue #31: this device chose the portrait table. */
  const [playInPortrait, choosePortrait] = usePlayInPortrait();
  const social = useSocialActions();
  const [chatOpenMobile, setChatOpenMobile] = useState(false);
  const [leaveConfirm, setLeaveConfirm] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const mobile = isMobileOrTablet();
  const screen = useFullscreen(mobile);

  const liveTable = useLiveTable(gameId, user?.id, sock.socket);
  const { live, dispatch, gate, pendingCard, bidSent } = liveTable;
  const { table, trickBanner, summary, summaryDeadline, result, resultDeadline, replacements, chat, playAgainText } =
    live;
  const actions = useTableActions(gameId, spectateParam, liveTable);

  // ---- derived -----------------------------------------------------------------------------------
  const view = useMemo(() => (table ? toPlayerView(table) : null), [table]);
  const myLegalCards = useMemo(() => (view ? legalCards(view) : []), [view]);
  const myLegalBids = useMemo(() => (view ? legalBids(view) : null), [view]);
  const mySeat = table?.mySeat ?? null;
  const spectating = spectateParam || mySeat === null;
  const isMyTurn = table !== null && mySeat !== null && table.turn === mySeat;
  const isHost = !!table && isHostOf(table, user?.id);
  const biddingOpen = gate.biddingOpen(table);
  const blind = useBlindNil(
    isMyTurn && table?.status === 'BIDDING' && !!myLegalBids?.blindNil && table.handHidden,
    biddingOpen,
    actions.revealCards,
  );
  useTableSocket({ gameId, spectate: spectateParam, table: liveTable, onNewHand: blind.reset });
  useTableNotices(gameId, table, isMyTurn, mySeat !== null && !spectateParam);

  // Trick banner for 2 s (or until clear_trick).
  useEffect(() => {
    if (!trickBanner) return;
    const t = setTimeout(() => dispatch({ type: 'clear_trick' }), TRICK_DISPLAY_MS);
    return () => clearTimeout(t);
  }, [trickBanner]);

  const summaryLeft = useCountdown(summaryDeadline);
  const resultLeft = useCountdown(resultDeadline);
  // Issue #31: the acting seat's timer for the whole turn; what the server played for me when mine ran out.
  const turnClock = useTurnClock(table);
  const timeout = useTurnTimeout({
    gameId,
    acted: pendingCard !== null || bidSent,
    onLine: (message) => dispatch({ type: 'chat_message', message }),
    notify,
  });

  // Hand summary countdown: at 0 ask for the next hand (idempotent on the server; the attempt retries on its
  // own, see useNextHand) and close the summary.
  useEffect(() => {
    if (summaryLeft !== 0 || !summary) return;
    liveTable.nextHand.ask(summary.handNumber);
    dispatch({ type: 'summary_closed' });
  }, [summaryLeft]);

  // Result countdown: leave automatically at 0.
  useEffect(() => {
    if (resultLeft === 0 && result) void actions.leave();
  }, [resultLeft]);

  const leave = () => {
    setLeaveConfirm(false);
    void actions.leave();
  };
  const onLeaveClick = () => {
    if (!spectating && table && table.status !== 'WAITING' && table.status !== 'COMPLETED') setLeaveConfirm(true);
    else leave();
  };
  const bid = (b: number, blindBid = false) => {
    if (!bidSent) blind.close();
    actions.bid(b, blindBid);
  };

  // ---- render ------------------------------------------------------------------------------------
  if (liveTable.refused) return <InvitationNeeded {...liveTable.refused} />;
  if (liveTable.loadError) return <CenterMessage text={`Error: ${liveTable.loadError}`} onBack={() => navigate('/')} />;
  if (liveTable.notFound) return <CenterMessage text="Game not found" onBack={() => navigate('/')} />;
  if (!table) return <LoadingScreen text="Loading table…" />;

  const scale = Math.max(0.6, Math.min(1, width / 1200));
  const narrow = width < 640 || height <= 500;
  // §2: whenever the window is taller than wide (phones, tablets and narrow desktop windows alike).
  const portrait = height > width;
  const badge = modeBadge({ forcedBid: table.forcedBid, gameType: biddingType(table) });
  const canAct = !spectating && mySeat !== null;
  const blindPrompt = blind.prompt;
  const showBidding =
    canAct &&
    biddingOpen &&
    isMyTurn &&
    !bidSent &&
    !blindPrompt &&
    !(table.handHidden && myLegalBids?.blindNil && !blind.declined);
  const hostName = hostSeatOf(table)?.username ?? 'the host';
  const nowMs = Date.now();
  const { cards: displayTrick, winner: winnerSeat } = displayedTrick(table, trickBanner);
  const heldForSeat = (s: number) => heldFor(table, s, user?.id, nowMs);
  const declineBlind = blind.decline;
  const dealing = gate.dealing;
  const onDealt = gate.onDealt;
  const playCard = actions.playCard;
  const playAgain = actions.playAgain;

  return (
    <div
      className={`table-page${portrait && playInPortrait ? ' portrait' : ''}`}
      style={{ ['--scale' as string]: scale }}
    >
      <TableHeader
        table={table}
        badge={badge}
        spectating={spectating}
        canInvite={mySeat !== null && table.status !== 'COMPLETED'}
        onLeave={onLeaveClick}
        onInvite={() => setInviteOpen(true)}
        mobile={mobile}
        fullscreen={screen.fullscreen}
        onToggleFullscreen={screen.toggle}
        onOpenChat={narrow ? () => setChatOpenMobile(true) : null}
      />
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
                turnSecondsLeft={turnClock?.seat === s ? turnClock.secondsLeft : null}
                turnSeconds={turnClock?.totalSeconds}
                replacementLeft={replacementSecondsLeft(table, replacements, s, nowMs)}
                heldFor={heldForSeat(s)}
                canJoin={
                  !table.seats[s] &&
                  !heldForSeat(s) &&
                  mySeat === null &&
                  !spectateParam &&
                  (table.status === 'WAITING' || !!replacements[s])
                }
                onJoin={() => void actions.joinSeat(s)}
                canInviteBot={!table.seats[s] && isHost && (table.status === 'WAITING' || !!replacements[s])}
                onInviteBot={() => void actions.inviteBot(s)}
                canRemoveBot={mayRemoveBot(table, s, user?.id, isHost)}
                onRemoveBot={() => void actions.removeBot(s)}
              />
            ))}
            <TrickArea
              cards={displayTrick}
              winner={winnerSeat}
              mySeat={mySeat}
              banner={
                trickBanner
                  ? (table.seats[trickBanner.winner]?.username ?? `Seat ${trickBanner.winner + 1}`) + ' wins the trick!'
                  : null
              }
            />
            {table.status === 'WAITING' && (
              <WaitingPanel
                table={table}
                isHost={isHost}
                hostName={hostName}
                starting={actions.starting}
                onStart={actions.askStart}
              />
            )}
            <div className="table-extras">
              {table.status === 'PLAYING' && (
                <LastTrick
                  lastTrick={table.lastTrick}
                  mySeat={mySeat}
                  names={table.seats.map((p, i) => p?.username ?? `Seat ${i + 1}`)}
                />
              )}
              {table.status !== 'WAITING' && <QuickChat gameId={gameId} enabled={playerOptions.quickChat} />}
              {canAct && <BidHint view={view} rated={table.rated} always={playerOptions.bidHint} />}
            </div>
            {canAct && table.status === 'PLAYING' && isMyTurn && (
              <ClaimButton gameId={gameId} canClaim={table.canClaim === true} tricksLeft={13 - table.trickNumber} />
            )}
            <QuickChatBubbles
              gameId={gameId}
              seatIds={table.seats.map((p) => p?.id ?? null)}
              mySeat={mySeat}
              enabled={playerOptions.quickChat}
            />
            {timeout.warning && canAct && (
              <div className="timeout-warning" role="alert">
                <span>{timeout.warning}</span>
                <button type="button" className="icon-btn" aria-label="Dismiss the warning" onClick={timeout.dismiss}>
                  <X size={14} />
                </button>
              </div>
            )}
            {table.status === 'BIDDING' && canAct && !isMyTurn && biddingOpen && (
              <div className="turn-hint" role="status">
                {table.turn !== null ? `${table.seats[table.turn]?.username ?? 'Player'} is bidding…` : 'Bidding…'}
              </div>
            )}
            {blindPrompt && <BlindNilPrompt onYes={() => bid(0, true)} onNo={declineBlind} />}
            {showBidding && myLegalBids && (
              <BiddingPanel bids={myLegalBids.bids} onBid={(b) => bid(b)} disabled={bidSent} />
            )}
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
                cardWidth={88 * scale * (playerOptions.cardSize === 'large' ? 1.28 : 1)}
                animate={dealing}
                onDealt={onDealt}
              />
            </div>
          )}
        </main>
        <TableSide
          table={table}
          selfId={user?.id}
          isHost={isHost}
          narrow={narrow}
          open={chatOpenMobile}
          onClose={() => setChatOpenMobile(false)}
          gameChat={playerOptions.quickChat ? chat : chat.filter((m) => !m.quick)}
          lobbyChat={sock.lobbyMessages}
          blocked={blockedSenders}
          canSendGame={sock.ready}
          canSendLobby={sock.authenticated}
          onSend={actions.sendChat}
          onBlockToggle={(p) => social.ask(blockedSenders.has(p.id) ? 'unblock' : 'block', p)}
          onRemovePlayer={(id, name) => void actions.removePlayer(id, name)}
        />
      </div>
      {sock.error && (
        <div className="conn-banner" role="status">
          {sock.error}
        </div>
      )}
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
          onLeave={leave}
          replayHref={replayPath(gameId)}
          ratingGame={{ gameId: table.id, gameNumber: table.gameNumber }}
          lastHand={summary ?? table.lastHandSummary}
          buyIn={table.buyIn}
        />
      )}
      <StartWarnings
        warning={actions.startWarning}
        onCancel={actions.closeStartWarning}
        onStart={() => void actions.start()}
      />
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
      {social.dialog}
      <ConfirmDialog
        open={leaveConfirm}
        title="Leave the table?"
        message={
          table.rated
            ? 'The game is in progress: leaving forfeits your buy-in.'
            : 'The game is in progress: a bot will take your seat.'
        }
        yesLabel="Leave"
        noLabel="Stay"
        danger
        onYes={leave}
        onNo={() => setLeaveConfirm(false)}
      />
      {portrait && !playInPortrait && <RotateOverlay onPlayInPortrait={choosePortrait} />}
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
