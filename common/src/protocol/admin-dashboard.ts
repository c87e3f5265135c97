/**
 * The console's Dashboard (issue #25): GET /api/admin/dashboard (moderators and admins). Read from the server's
 * own state and metrics: who is online, the tables, table commands per second and the acknowledgement p99 over
 * the last minutes (sampled from each node's Prometheus metrics every DASHBOARD_SAMPLE_SECONDS), the nodes of a
 * cluster with their load, and the open reports.
 */

/** How often each node samples its own metrics for the dashboard's series. */
export const DASHBOARD_SAMPLE_SECONDS = 10;
/** How far back the series goes. */
export const DASHBOARD_WINDOW_MINUTES = 15;

/** One point of the activity series (the interval ending at `at`), all nodes together. */
export interface DashboardPoint {
  /** ISO time of the end of the interval. */
  at: string;
  /** Table commands applied per second (players' actions, bot moves, timers) over the interval. */
  actionsPerSecond: number;
  /** 99th percentile of a player's action acknowledgement (ms; bucket upper bound) over the interval; null if none. */
  ackP99Ms: number | null;
}

/** Summary over the last N minutes. */
export interface DashboardWindow {
  minutes: number;
  actionsPerSecond: number;
  ackP99Ms: number | null;
  /** Players' actions acknowledged in the window (the p99's sample size). */
  acks: number;
}

/** One backend node (one entry when the server runs alone). */
export interface DashboardNode {
  id: string;
  /** This node answered the dashboard request (its metrics are in the figures). */
  reachable: boolean;
  draining: boolean;
  /** Open tables it drives. */
  liveTables: number;
  /** Bot decisions waiting. */
  botQueue: number;
  /** Sockets connected to it. */
  sockets: number | null;
  /** Table commands per second over the last minute. */
  actionsPerSecond: number | null;
  ackP99Ms: number | null;
  /** Event-loop delay p99 (ms), process memory (MB). */
  eventLoopP99Ms: number | null;
  rssMB: number | null;
  startedAt: string | null;
  heartbeatAt: string | null;
}

export interface AdminDashboard {
  /** ISO time of the answer. */
  at: string;
  /** Signed-in users with an open socket (every node). */
  onlineUsers: number;
  /** Open tables (waiting, playing or showing a result), every node. */
  liveTables: number;
  /** Tables with a game in progress or its result showing. */
  playingTables: number;
  /** Waiting for players. */
  waitingTables: number;
  /** Rated games in progress (buy-ins in escrow). */
  ratedTables: number;
  /** Summaries over the last minute and the last five minutes. */
  lastMinute: DashboardWindow;
  last5Minutes: DashboardWindow;
  /** Oldest first, one point per sample interval, up to DASHBOARD_WINDOW_MINUTES back. */
  series: DashboardPoint[];
  /** Several nodes (DATABASE_URL + REDIS_URL)? */
  cluster: boolean;
  nodes: DashboardNode[];
  /** Reports waiting for a moderator (open or assigned). */
  openReports: number;
}
