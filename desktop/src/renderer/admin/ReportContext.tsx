import { Link } from 'react-router';
import type { ReportChatLine, ReportContext } from '@spades/common';
import { when } from './format';

function ChatLines({ lines, label }: { lines: ReportChatLine[]; label: string }) {
  if (lines.length === 0) return <p className="muted small">No chat lines were captured.</p>;
  return (
    <div className="chat-context" role="list" aria-label={label}>
      {lines.map((l) => (
        <div
          key={l.id}
          role="listitem"
          className={`line ${l.reported ? 'reported' : ''}`}
          data-reported={l.reported || undefined}
        >
          <span className="muted small num">{when(l.at).slice(11, 16)}</span>
          <span className="who">
            <Link to={`/admin/players/${l.userId}`}>{l.username}</Link>
          </span>
          <span className="msg">{l.message}</span>
        </div>
      ))}
    </div>
  );
}

/** The context the server captured with a report: chat lines around the reported one, the game, or an auto-mute. */
export function ReportContextView({ context }: { context: ReportContext }) {
  switch (context.kind) {
    case 'profile':
      return <p className="muted small">Reported from the player's profile (no chat or game attached).</p>;
    case 'lobby_chat':
      return <ChatLines lines={context.lines} label="Lobby chat around the reported line" />;
    case 'table_chat':
      return (
        <>
          <p className="muted small">
            Table chat of <span className="code">{context.gameId.slice(0, 8)}</span>
          </p>
          <ChatLines lines={context.lines} label="Table chat around the reported line" />
        </>
      );
    case 'game':
      return (
        <>
          <p className="small">
            Game <span className="code">{context.gameId.slice(0, 8)}</span> · {context.status}{' '}
            {context.private && <span className="badge badge-outline">private</span>}{' '}
            <Link to={`/replay/${context.gameId}`}>Replay</Link>
          </p>
          <div className="seat-list">
            {context.seats.map((s) => (
              <span key={s.seat} className="seat">
                Seat {s.seat + 1}:{' '}
                {s.bot ? 'Bot' : s.userId ? <Link to={`/admin/players/${s.userId}`}>{s.username}</Link> : 'empty'}
              </span>
            ))}
          </div>
          <h3 className="h4">Table chat</h3>
          <ChatLines lines={context.chat} label="Table chat" />
        </>
      );
    case 'auto_mute':
      return (
        <>
          <p className="small">
            Muted by {context.mutedBy.length} players within 24 hours (threshold {context.threshold}):{' '}
            {context.mutedBy.map((m, i) => (
              <span key={m.userId}>
                {i > 0 && ', '}
                <Link to={`/admin/players/${m.userId}`}>{m.username}</Link>
              </span>
            ))}
          </p>
          <h3 className="h4">Their last lobby lines</h3>
          <ChatLines lines={context.lines} label="The muted player's lobby chat" />
        </>
      );
  }
}
