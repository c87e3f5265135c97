import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_REPORTS_PATH,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_STATUSES,
  type ReportCategory,
  type ReportDetail,
  type ReportQueuePage,
  type ReportResolveRequest,
  type ReportStatus,
} from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { qs, useStaff } from './admin-api';
import { ago, requestLabel, when } from './format';
import {
  ReasonDialog,
  SanctionFields,
  draftReady,
  draftToRequest,
  emptyDraft,
  type SanctionDraft,
} from './ReasonDialog';
import { ReportContextView } from './ReportContext';

const STATUS_LABELS: Record<ReportStatus, string> = {
  open: 'Open',
  assigned: 'Assigned',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
};

type Dialog = { kind: 'assign' } | { kind: 'dismiss' } | { kind: 'resolve'; draft: SanctionDraft };

/** The reports queue: pick a report, read its context, assign it, resolve it with an action or dismiss it. */
export function ReportsPage() {
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'open') as ReportStatus;
  const category = (params.get('category') ?? '') as ReportCategory | '';
  const mine = params.get('mine') === '1';
  const me = useStaff();
  const navigate = useNavigate();
  // the filters travel with the links (the selected report keeps them)
  const search = params.toString() ? `?${params.toString()}` : '';
  const setParam = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next, { replace: true });
  };
  const filters = { status, category: category || undefined, assignee: mine ? me.id : undefined };
  const queue = useInfiniteQuery({
    queryKey: ['admin', 'reports', filters],
    queryFn: ({ pageParam }) =>
      api.get<ReportQueuePage>(`${ADMIN_REPORTS_PATH}${qs({ ...filters, before: pageParam, limit: 50 })}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    refetchInterval: 15_000,
  });
  const reports = queue.data?.pages.flatMap((p) => p.reports) ?? [];
  const counts = queue.data?.pages[0]?.counts;
  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Reports</h1>
      </div>
      <div className="segmented" role="radiogroup" aria-label="Report status" style={{ alignSelf: 'flex-start' }}>
        {REPORT_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            role="radio"
            aria-checked={status === s}
            className={status === s ? 'active' : ''}
            onClick={() => setParam('status', s === 'open' ? null : s)}
          >
            {STATUS_LABELS[s]} {counts && <span className="num muted">{counts[s]}</span>}
          </button>
        ))}
      </div>
      <div className="console-filters">
        <label className="field">
          <span>Category</span>
          <select className="select" value={category} onChange={(e) => setParam('category', e.target.value || null)}>
            <option value="">All categories</option>
            {REPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {REPORT_CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={mine} onChange={(e) => setParam('mine', e.target.checked ? '1' : null)} />
          Assigned to me
        </label>
      </div>
      {queue.error ? (
        <p className="form-error" role="alert">
          {errorText(queue.error, 'Could not load the reports')}
        </p>
      ) : null}
      <div className="console-cols">
        <div className="data-wrap">
          <table className="data" aria-label="Report queue">
            <thead>
              <tr>
                <th>Reported</th>
                <th>Why</th>
                <th>By</th>
                <th>Assigned</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {queue.isLoading ? (
                <tr>
                  <td colSpan={5} className="empty">
                    Loading…
                  </td>
                </tr>
              ) : reports.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty">
                    No {STATUS_LABELS[status].toLowerCase()} reports.
                  </td>
                </tr>
              ) : (
                reports.map((r) => (
                  <tr key={r.id} className={r.id === id ? 'selected' : ''} data-testid="report-row">
                    <td className="nowrap">
                      <Link to={`/admin/reports/${r.id}${search}`} aria-current={r.id === id ? 'true' : undefined}>
                        {r.targetName}
                      </Link>
                    </td>
                    <td>
                      <div className="nowrap">{REPORT_CATEGORY_LABELS[r.category]}</div>
                      {r.text && <div className="muted small clip">{r.text}</div>}
                    </td>
                    <td className="nowrap">{r.reporterName ?? <span className="badge badge-neutral">server</span>}</td>
                    <td className="nowrap">{r.assigneeName ?? '—'}</td>
                    <td className="nowrap" title={when(r.createdAt)}>
                      {ago(r.createdAt)}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          {queue.hasNextPage && (
            <div className="pager">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => void queue.fetchNextPage()}
                disabled={queue.isFetchingNextPage}
              >
                {queue.isFetchingNextPage ? 'Loading…' : 'Older reports'}
              </button>
            </div>
          )}
        </div>
        {id ? (
          <ReportPanel id={id} onGone={() => navigate(`/admin/reports${search}`)} />
        ) : (
          <div className="console-panel muted">Pick a report to see what was said or played, and act on it.</div>
        )}
      </div>
    </div>
  );
}

function ReportPanel({ id, onGone }: { id: string; onGone: () => void }) {
  const me = useStaff();
  const qc = useQueryClient();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const q = useQuery({
    queryKey: ['admin', 'report', id],
    queryFn: () => api.get<ReportDetail>(`${ADMIN_REPORTS_PATH}/${encodeURIComponent(id)}`),
  });
  const r = q.data;
  if (q.error)
    return (
      <p className="form-error console-panel" role="alert">
        {errorText(q.error, 'Could not load this report')}
      </p>
    );
  if (!r) return <div className="console-panel muted">Loading…</div>;
  const open = r.status === 'open' || r.status === 'assigned';
  const after = (text: string) => {
    notify(text, 'info');
    void qc.invalidateQueries({ queryKey: ['admin'] });
  };
  const close = (o: boolean) => !o && setDialog(null);
  return (
    <section className="console-panel console-page" aria-label="Report">
      <div className="console-head">
        <h2 className="h3" style={{ marginRight: 'auto' }}>
          {REPORT_CATEGORY_LABELS[r.category]}: <Link to={`/admin/players/${r.targetId}`}>{r.targetName}</Link>
        </h2>
        <span className={`badge ${open ? 'badge-amber' : 'badge-dim'}`}>{r.status}</span>
      </div>
      <dl className="kv">
        <dt>Reported by</dt>
        <dd>{r.reporterId ? <Link to={`/admin/players/${r.reporterId}`}>{r.reporterName}</Link> : 'the server'}</dd>
        <dt>When</dt>
        <dd>{when(r.createdAt)}</dd>
        <dt>Their words</dt>
        <dd>{r.text || <span className="muted">—</span>}</dd>
        <dt>Assigned to</dt>
        <dd>{r.assigneeName ?? '—'}</dd>
        <dt>Reports on {r.targetName}</dt>
        <dd>{r.reportsAgainstTarget}</dd>
      </dl>
      <ReportContextView context={r.context} />
      {r.resolution && (
        <div className="warning-box" role="status">
          {r.resolution.status === 'resolved' ? 'Resolved' : 'Dismissed'} by {r.resolution.byName ?? r.resolution.byId}{' '}
          {when(r.resolution.at)}
          {r.resolution.action && <> with {requestLabel(r.resolution.action)}</>}: {r.resolution.reason}
        </div>
      )}
      {open && (
        <div className="action-bar">
          {r.assigneeId !== me.id && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDialog({ kind: 'assign' })}>
              Assign to me
            </button>
          )}
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() =>
              setDialog({ kind: 'resolve', draft: emptyDraft(r.category === 'auto-mute' ? 'mute' : 'warn') })
            }
          >
            Resolve with an action
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'dismiss' })}>
            Dismiss
          </button>
        </div>
      )}
      {dialog?.kind === 'assign' && (
        <ReasonDialog
          open
          onOpenChange={close}
          title="Assign this report to me"
          confirmLabel="Assign to me"
          onSubmit={async (reason) => {
            await api.post(`${ADMIN_REPORTS_PATH}/${r.id}/assign`, { reason });
            after('Assigned to you');
          }}
        />
      )}
      {dialog?.kind === 'dismiss' && (
        <ReasonDialog
          open
          onOpenChange={close}
          title="Dismiss this report"
          description={
            r.category === 'auto-mute' ? 'The automatic mute is lifted.' : 'No action is taken against the player.'
          }
          confirmLabel="Dismiss"
          onSubmit={async (reason) => {
            await api.post(`${ADMIN_REPORTS_PATH}/${r.id}/dismiss`, { reason });
            after('Report dismissed');
            onGone();
          }}
        />
      )}
      {dialog?.kind === 'resolve' && (
        <ReasonDialog
          open
          onOpenChange={close}
          title={`Resolve: act on ${r.targetName}`}
          description="The action is applied to the reported player with your reason; the report is closed."
          confirmLabel="Resolve"
          danger={dialog.draft.kind === 'ban'}
          canSubmit={draftReady(dialog.draft)}
          onSubmit={async (reason) => {
            const body: ReportResolveRequest = { action: draftToRequest(dialog.draft, reason), reason };
            await api.post(`${ADMIN_REPORTS_PATH}/${r.id}/resolve`, body);
            after('Report resolved');
            onGone();
          }}
        >
          <SanctionFields draft={dialog.draft} onChange={(draft) => setDialog({ kind: 'resolve', draft })} />
        </ReasonDialog>
      )}
    </section>
  );
}
