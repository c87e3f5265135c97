import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_SAMPLE_SECONDS, type AdminDashboard, type DashboardPoint } from '@spades/common';
import { api, errorText } from '../lib/api';
import { ago, when } from './format';

const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)} ms`);
const rate = (v: number | null) => (v === null ? '—' : v >= 10 ? v.toFixed(0) : v.toFixed(1));

function Kpi({
  label,
  value,
  sub,
  warn = false,
  testId,
}: {
  label: string;
  value: string | number;
  sub?: string;
  warn?: boolean;
  testId?: string;
}) {
  return (
    <div className={`kpi ${warn ? 'warn' : ''}`} data-testid={testId}>
      <span className="kpi-label">{label}</span>
      <span className="kpi-value">{value}</span>
      {sub && <span className="kpi-sub">{sub}</span>}
    </div>
  );
}

/** Bars of one series (the tallest bar = the largest value); the values are in each bar's title. */
function Series({
  points,
  pick,
  label,
  unit,
}: {
  points: DashboardPoint[];
  pick: (p: DashboardPoint) => number | null;
  label: string;
  unit: string;
}) {
  const values = points.map(pick);
  const max = Math.max(1, ...values.map((v) => v ?? 0));
  return (
    <figure className="console-panel" style={{ margin: 0 }} aria-label={label}>
      <figcaption className="h3">{label}</figcaption>
      {points.length === 0 ? (
        <p className="muted small">No samples yet: the server samples every {DASHBOARD_SAMPLE_SECONDS} s.</p>
      ) : (
        <>
          <div className="series" role="img" aria-label={`${label}: latest ${values.at(-1) ?? 'none'} ${unit}`}>
            {points.map((p, i) => {
              const v = values[i];
              return (
                <span
                  key={p.at}
                  className={`bar ${v === null ? 'none' : ''}`}
                  style={{ height: `${v === null ? 4 : Math.max(2, (v / max) * 100)}%` }}
                  title={`${when(p.at)}: ${v === null ? 'none' : `${v} ${unit}`}`}
                />
              );
            })}
          </div>
          <div className="series-axis">
            <span>{ago(points[0]!.at)}</span>
            <span>
              max {Math.round(max * 10) / 10} {unit}
            </span>
            <span>now</span>
          </div>
        </>
      )}
    </figure>
  );
}

/** What the server is doing now: players online, tables, load and latency, nodes, open reports. */
export function DashboardPage() {
  const q = useQuery({
    queryKey: ['admin', 'dashboard'],
    queryFn: () => api.get<AdminDashboard>('/api/admin/dashboard'),
    refetchInterval: DASHBOARD_SAMPLE_SECONDS * 1000,
  });
  const d = q.data;
  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Dashboard</h1>
        {d && <span className="muted small">Updated {when(d.at)}</span>}
      </div>
      {q.error ? (
        <p className="form-error" role="alert">
          {errorText(q.error, 'Could not load the dashboard')}
        </p>
      ) : null}
      {!d ? (
        !q.error && <p className="muted">Loading…</p>
      ) : (
        <>
          <div className="kpis">
            <Kpi label="Online players" value={d.onlineUsers} testId="kpi-online" />
            <Kpi label="Live tables" value={d.liveTables} sub={`${d.waitingTables} waiting`} testId="kpi-live" />
            <Kpi label="Playing" value={d.playingTables} sub={`${d.ratedTables} rated`} />
            <Kpi
              label="Actions / s"
              value={rate(d.lastMinute.actionsPerSecond)}
              sub={`5 min: ${rate(d.last5Minutes.actionsPerSecond)}`}
            />
            <Kpi
              label="Ack p99"
              value={ms(d.lastMinute.ackP99Ms)}
              sub={`${d.lastMinute.acks} acks in the last minute`}
            />
            <Link to="/admin/reports" className="kpi-link">
              <Kpi label="Open reports" value={d.openReports} warn={d.openReports > 0} testId="kpi-reports" />
            </Link>
          </div>
          <div className="console-grid">
            <Series points={d.series} pick={(p) => p.actionsPerSecond} label="Table actions per second" unit="/s" />
            <Series points={d.series} pick={(p) => p.ackP99Ms} label="Action acknowledgement p99" unit="ms" />
          </div>
          <section className="console-panel" aria-labelledby="nodes-h">
            <h2 id="nodes-h" className="h3">
              {d.cluster ? `Nodes (${d.nodes.length})` : 'Server'}
            </h2>
            <div className="data-wrap">
              <table className="data">
                <thead>
                  <tr>
                    <th>Node</th>
                    <th>State</th>
                    <th className="num">Tables</th>
                    <th className="num">Sockets</th>
                    <th className="num">Actions/s</th>
                    <th className="num">Ack p99</th>
                    <th className="num">Event loop p99</th>
                    <th className="num">Memory</th>
                    <th className="num">Bot queue</th>
                    <th>Started</th>
                  </tr>
                </thead>
                <tbody>
                  {d.nodes.map((n) => (
                    <tr key={n.id}>
                      <td className="code">{n.id}</td>
                      <td>
                        {n.draining ? (
                          <span className="badge badge-amber">draining</span>
                        ) : n.reachable ? (
                          <span className="badge badge-green">up</span>
                        ) : (
                          <span className="badge badge-red">no answer</span>
                        )}
                      </td>
                      <td className="num">{n.liveTables}</td>
                      <td className="num">{n.sockets ?? '—'}</td>
                      <td className="num">{rate(n.actionsPerSecond)}</td>
                      <td className="num">{ms(n.ackP99Ms)}</td>
                      <td className="num">{ms(n.eventLoopP99Ms)}</td>
                      <td className="num">{n.rssMB === null ? '—' : `${Math.round(n.rssMB)} MB`}</td>
                      <td className="num">{n.botQueue}</td>
                      <td className="nowrap" title={n.startedAt ?? ''}>
                        {ago(n.startedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
