/**
 * Replay viewer (`/replay/:id[?game=N]`, issue #12): the finished game's table seen from above with all four
 * hands, stepped card by card or trick by trick (arrows; Shift+arrows by trick; Space plays/pauses), a hand
 * picker, the score sheet, and per hand "Verify deal" (common's verifyDeal in the browser: sha256(seed) against
 * the commitment, dealFromSeed(seed) against the hands shown, every card played against its dealt hand).
 *
 * This file is layout: the document comes from useReplayDocument, the position and playback from
 * useReplayPlayback (the timeline is `replay-model.ts`: common's runReplay over the document's actions), what is
 * shown from the pure `replay-view.ts`; the panels are ReplayHeader, ReplayFelt (the live table's `SeatBadge`
 * and `CardFace` drawn from the same `TableModel`), ReplayControls, HandPanel / VerifyDeal, ScoreSheet, ResultBox.
 */
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, errorText } from '../lib/api';
import { LoadingScreen, Logo } from '../components/ui';
import { useSession } from '../session/session';
import { ShareLinks } from './ShareLinks';
import type { ReplayTimeline } from './replay-model';
import '../table/table.css';
import './replay.css';
import { useRatingsThen } from './ratings-then';
import { mayShareReplay } from './replay-view';
import { useReplayDocument } from './useReplayDocument';
import { useReplayPlayback } from './useReplayPlayback';
import { useReplayDownload } from './useReplayDownload';
import { ReplayHeader } from './ReplayHeader';
import { ReplayFelt } from './ReplayFelt';
import { ReplayControls } from './ReplayControls';
import { HandPanel } from './HandPanel';
import { ScoreSheet } from './ScoreSheet';
import { ResultBox } from './ResultBox';

export { REPLAY_SPEEDS } from './replay-view';
export { VerifyDeal } from './VerifyDeal';

export function ReplayPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const game = params.get('game');
  // a share link (issue #24): that one replay, signed in or not
  const share = params.get('share');
  const me = useSession().user?.id ?? null;
  const navigate = useNavigate();
  const { isLoading, error, timeline } = useReplayDocument(id, game, share);
  if (isLoading) return <LoadingScreen text="Loading the replay…" />;
  if (error || !timeline) {
    const msg =
      error instanceof ApiError
        ? error.message
        : error
          ? errorText(error, 'Failed to load the replay')
          : 'This replay cannot be read';
    return (
      <div className="loading-screen">
        <Logo size={48} />
        <p className="h3">{msg}</p>
        <button type="button" className="btn btn-secondary" onClick={() => navigate('/')}>
          Back to lobby
        </button>
      </div>
    );
  }
  return <ReplayViewer timeline={timeline} me={me} shared={!!share} />;
}

/** `me`: the signed-in user (a player of a private game may share it); `shared`: opened through a share link. */
export function ReplayViewer({
  timeline: t,
  me = null,
  shared = false,
}: {
  timeline: ReplayTimeline;
  me?: string | null;
  shared?: boolean;
}) {
  const doc = t.doc;
  // issue #31: the ratings the players had when the game was played (shared links: none)
  const ratingsThen = useRatingsThen(doc.gameId, doc.gameNumber, doc.rated && !shared);
  const playback = useReplayPlayback(t);
  const download = useReplayDownload(doc, shared);
  const { frame } = playback;

  return (
    <div className="replay-page" style={{ ['--scale' as string]: 0.8 }}>
      <ReplayHeader doc={doc} table={frame.table} onDownload={() => void download()} />
      <div className="replay-body">
        <main className="replay-main" aria-label="Replay table">
          <ReplayFelt doc={doc} frame={frame} ratingsThen={ratingsThen} />
          <ReplayControls t={t} doc={doc} p={playback} />
        </main>
        <aside className="replay-side" aria-label="Score sheet and deal verification">
          {mayShareReplay(doc, me, shared) && <ShareLinks gameId={doc.gameId} gameNumber={doc.gameNumber} />}
          {frame.hand && <HandPanel hand={frame.hand} doc={doc} />}
          <ScoreSheet doc={doc} current={frame.handNumber} onPick={playback.goHand} />
          <ResultBox doc={doc} />
        </aside>
      </div>
    </div>
  );
}
