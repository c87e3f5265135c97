import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type AuditPage as AuditPageDto } from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { downloadFile, qs } from './admin-api';
import { when } from './format';

const PAGE = 50;

/** What changed, in one short line ("role: user → moderator"); the full JSON is in the title. */
export function changeText(e: Pick<AuditEntry, 'before' | 'after'>): string {
  const show = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const b = show(e.before);
  const a = show(e.after);
  if (!b && !a) return '';
  if (!b) return a;
  if (!a) return `${b} →`;
  return `${b} → ${a}`;
}

/** The audit log (admins): newest first, filtered by action, actor or target, paged, exported as CSV or JSON. */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const action = (params.get('action') ?? '') as AuditAction | '';
  const actor = params.get('actor') ?? '';
  const target = params.get('target') ?? '';
  const [actorInput, setActorInput] = useState(actor);
  const [targetInput, setTargetInput] = useState(target);
  const notify = useNotify();
  const filters = { action: action || undefined, actor: actor || undefined, target: target || undefined };
  const q = useInfiniteQuery({
    queryKey: ['admin', 'audit', filters],
    queryFn: ({ pageParam }) =>
      api.get<AuditPageDto>(`/api/admin/audit${qs({ ...filters, before: pageParam, limit: PAGE })}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
  const entries = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next, { replace: true });
  };
  const exportAs = (format: 'csv' | 'json') =>
    downloadFile(`/api/admin/audit/export${qs({ ...filters, format })}`, `audit.${format}`).catch((e: unknown) =>
      notify(errorText(e, 'Export failed')),
    );

  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Audit log</h1>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void exportAs('csv')}>
          <Download size={16} aria-hidden="true" /> Export CSV
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void exportAs('json')}>
          <Download size={16} aria-hidden="true" /> Export JSON
        </button>
      </div>
      <p className="hint">
        Every action of a moderator or admin, and of the server itself, with its reason. The log is append-only.
      </p>
      <form
        className="console-filters"
        onSubmit={(e) => {
          e.preventDefault();
          const next = new URLSearchParams(params);
          for (const [k, v] of [
            ['actor', actorInput.trim()],
            ['target', targetInput.trim()],
          ] as const) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          setParams(next, { replace: true });
        }}
      >
        <label className="field">
          <span>Action</span>
          <select className="select" value={action} onChange={(e) => set('action', e.target.value)}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Actor (account id)</span>
          <input value={actorInput} onChange={(e) => setActorInput(e.target.value)} placeholder="any" />
        </label>
        <label className="field">
          <span>Target (account id)</span>
          <input value={targetInput} onChange={(e) => setTargetInput(e.target.value)} placeholder="any" />
        </label>
        <button type="submit" className="btn btn-secondary">
          Filter
        </button>
        {(action || actor || target) && (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setActorInput('');
              setTargetInput('');
              setParams(new URLSearchParams(), { replace: true });
            }}
          >
            Clear
          </button>
        )}
      </form>
      {q.error ? (
        <p className="form-error" role="alert">
          {errorText(q.error, 'Could not load the audit log')}
        </p>
      ) : null}
      <div className="data-wrap">
        <table className="data" aria-label="Audit log">
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>Who</th>
              <th>Action</th>
              <th>On</th>
              <th>Reason</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {q.isLoading ? (
              <tr>
                <td colSpan={6} className="empty">
                  Loading…
                </td>
              </tr>
            ) : entries.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  No entries{action || actor || target ? ' match these filters' : ' yet'}.
                </td>
              </tr>
            ) : (
              entries.map((e) => (
                <tr key={e.id} data-testid="audit-row">
                  <td className="nowrap num">{when(e.at)}</td>
                  <td className="nowrap">
                    {e.actorId ? (
                      <Link to={`/admin/players/${e.actorId}`}>{e.actorName ?? e.actorId}</Link>
                    ) : (
                      <span className="badge badge-neutral">server</span>
                    )}
                  </td>
                  <td className="nowrap">
                    <span className="code">{e.action}</span>
                  </td>
                  <td className="nowrap">
                    {e.targetUserId ? (
                      <Link to={`/admin/players/${e.targetUserId}`}>{e.targetName ?? e.targetUserId}</Link>
                    ) : null}
                    {e.targetRef ? <div className="muted small code">{e.targetRef}</div> : null}
                  </td>
                  <td>{e.reason}</td>
                  <td className="clip code" title={JSON.stringify({ before: e.before, after: e.after }, null, 2)}>
                    {changeText(e)}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {q.hasNextPage && (
        <div className="pager">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => void q.fetchNextPage()}
            disabled={q.isFetchingNextPage}
          >
            {q.isFetchingNextPage ? 'Loading…' : 'Older entries'}
          </button>
        </div>
      )}
    </div>
  );
}
