// Several backend nodes behind nginx (issue #13): static checks of build/compose.scale.yml and build/nginx/spades.conf
// (Docker does not run on the team's machines), then the nginx example for real in front of two backend processes
// started by the container's entrypoint on one fresh PostgreSQL database and Redis: /health and the API through it
// reach both nodes, /metrics is refused, a socket.io client (WebSocket as the web client, and long-polling) connects
// and signs in through it. The live part needs `nginx` (.ci/run installs Debian's nginx), TEST_DATABASE_URL and
// REDIS_URL; without one of them it is skipped with the reason printed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBackendOnce } from './test-support/backend-build';
import { freePort } from './test-support/free-port';

const root = resolve(__dirname, '..');
const composeText = readFileSync(join(__dirname, 'compose.scale.yml'), 'utf8');
const nginxConf = readFileSync(join(__dirname, 'nginx', 'spades.conf'), 'utf8');

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}
const compose = load(composeText) as {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const backends = Object.keys(compose.services).filter((s) => /^backend-\d+$/.test(s));

/** The body of `upstream <name> { … }` and of `location <path> { … }` in the nginx example. */
function block(kind: string, name: string): string {
  const m = new RegExp(`^\\s*${kind} ${name.replace(/[/.]/g, '\\$&')} \\{\\n([\\s\\S]*?)^\\s*\\}`, 'm').exec(nginxConf);
  if (!m) throw new Error(`no ${kind} ${name} in spades.conf`);
  return m[1];
}
const upstreamServers = (name: string) => [...block('upstream', name).matchAll(/^\s*server (\S+)/gm)].map((m) => m[1]);
const seconds = (v: string) => {
  const m = /^(\d+)(ms|s|m|h)?$/.exec(v);
  if (!m) throw new Error(`not an nginx time: ${v}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] ?? 's']!;
};

describe('build/compose.scale.yml', () => {
  it('runs three backend replicas, nginx, PostgreSQL and Redis under the single-node project name', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'backend-1',
      'backend-2',
      'backend-3',
      'nginx',
      'postgres',
      'redis',
    ]);
    // same project and volume names as build/compose.yml: going from one node to three keeps the database
    const single = load(readFileSync(join(__dirname, 'compose.yml'), 'utf8')) as typeof compose;
    expect(compose.name).toBe(single.name);
    expect(compose.services.postgres).toEqual(single.services.postgres);
    expect(compose.services.redis).toEqual(single.services.redis);
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data']);
  });

  it('gives every replica the same image, database, Redis and secret, its own NODE_ID, and no published port', () => {
    const schema = readFileSync(join(root, 'backend/src/config/config.schema.ts'), 'utf8');
    for (const name of backends) {
      const b = compose.services[name];
      expect(b.build).toEqual({ context: '..', dockerfile: 'build/backend.Dockerfile' });
      expect(existsSync(resolve(__dirname, b.build!.context, b.build!.dockerfile))).toBe(true);
      expect(b.ports, `${name} is reached through nginx only`).toBeUndefined();
      expect(b.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      const env = b.environment!;
      expect(env.NODE_ID).toBe(name);
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/spades:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/spades$/);
      expect(env.REDIS_URL).toBe('redis://redis:6379'); // both set: cluster mode
      expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // required and shared: every node verifies every token
      expect(env.TRUST_PROXY).toBeDefined(); // behind nginx: client IPs from X-Forwarded-For
      expect(env.CLUSTER_LEASE_MS).toBeDefined();
      expect(env.PORT).toBe('3000');
      for (const k of Object.keys(env)) expect(schema, k).toContain(`${k}:`);
      // readiness, and time to drain on SIGTERM before Docker kills the replica
      expect(b.healthcheck!.test.join(' ')).toContain("'http://127.0.0.1:3000/health/ready'");
      expect(seconds(b.stop_grace_period!)).toBeGreaterThanOrEqual(30);
    }
    const ids = backends.map((n) => compose.services[n].environment!.NODE_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('publishes nginx only, with the example configuration, in front of every replica', () => {
    const n = compose.services.nginx;
    expect(n.ports).toEqual(['${SPADES_PORT:-3000}:80']);
    expect(n.volumes).toEqual(['./nginx/spades.conf:/etc/nginx/conf.d/default.conf:ro']);
    expect(Object.keys(n.depends_on!).sort()).toEqual(backends);
    // `resolve` on upstream servers needs nginx >= 1.27.3
    const [major, minor, patch] = /^nginx:(\d+)\.(\d+)(?:\.(\d+))?-/
      .exec(n.image!)!
      .slice(1)
      .map((v) => Number(v ?? 99));
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(1_027_003);
    expect(upstreamServers('spades_sticky')).toEqual(backends.map((b) => `${b}:3000`));
    expect(upstreamServers('spades_any')).toEqual(backends.map((b) => `${b}:3000`));
  });

  it('documents every variable it reads in .env.example', () => {
    const used = new Set([...composeText.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]));
    const example = readFileSync(join(__dirname, '.env.example'), 'utf8');
    for (const v of used) expect(example, v).toMatch(new RegExp(`^${v}=`, 'm'));
  });
});

describe('build/nginx/spades.conf', () => {
  it('upgrades WebSockets on every location and keeps socket.io connections open for long', () => {
    expect(nginxConf).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;\s*'' +'';\s*\}/);
    expect(nginxConf).toMatch(/^ {4}proxy_http_version 1\.1;$/m);
    expect(nginxConf).toMatch(/^ {4}proxy_set_header Upgrade \$http_upgrade;$/m);
    expect(nginxConf).toMatch(/^ {4}proxy_set_header Connection \$connection_upgrade;$/m);
    // A location with a proxy_set_header of its own would lose every server-level one (Upgrade, X-Forwarded-*).
    for (const loc of nginxConf.matchAll(/^ {4}location [^{]+\{\n([\s\S]*?)^ {4}\}/gm))
      expect(loc[1]).not.toContain('proxy_set_header');
    const sio = block('location', '/socket.io/');
    expect(sio).toContain('proxy_pass http://spades_sticky;');
    expect(seconds(/proxy_read_timeout (\S+);/.exec(sio)![1])).toBeGreaterThan(60); // > socket.io's 25 s ping + 20 s timeout
    expect(seconds(/proxy_send_timeout (\S+);/.exec(sio)![1])).toBeGreaterThan(60);
  });

  it('keeps a client on one node for socket.io (long-polling sessions live on one node); the Discord login needs no stickiness', () => {
    expect(block('upstream', 'spades_sticky')).toMatch(/^\s*hash \$remote_addr consistent;$/m);
    expect(nginxConf).not.toContain('location /api/auth/discord');
    expect(block('location', '/')).toContain('proxy_pass http://spades_any;');
    // a player's API calls go where their socket is (their tables are placed there: fewer forwarded commands)
    expect(block('location', '/api/')).toContain('proxy_pass http://spades_sticky;');
    // the web client opens a WebSocket first (the comment in spades.conf relies on it)
    const client = readFileSync(join(root, 'desktop/src/renderer/socket/socket.tsx'), 'utf8');
    expect(client).toMatch(/transports: \['websocket', 'polling'\]/);
    expect(client).not.toContain('tryAllTransports');
  });

  it('forwards the client address and scheme (TRUST_PROXY) and refuses /metrics', () => {
    for (const h of [
      'X-Forwarded-For $proxy_add_x_forwarded_for',
      'X-Forwarded-Proto $scheme',
      'X-Real-IP $remote_addr',
      'Host $host',
    ]) {
      expect(nginxConf).toContain(`proxy_set_header ${h};`);
    }
    expect(block('location', '= /metrics')).toMatch(/return 403;/);
  });
});

// ---- live: nginx in front of two backend processes ------------------------------------------------------------

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
/** The nodes serve /metrics only with this bearer token (issue #24). */
const METRICS_TOKEN = randomBytes(18).toString('hex');
const metricsAuth = { authorization: `Bearer ${METRICS_TOKEN}` };
const REDIS_URL = process.env.REDIS_URL;
const nginxBin = spawnSync('nginx', ['-v'], { encoding: 'utf8' }).status === 0 ? 'nginx' : null;
const skipReason = !nginxBin
  ? 'nginx is not installed (apt-get install nginx)'
  : !TEST_DATABASE_URL
    ? 'TEST_DATABASE_URL is not set'
    : !REDIS_URL
      ? 'REDIS_URL is not set'
      : null;
if (skipReason) console.warn(`[scale-out.spec] ${skipReason}: skipping nginx in front of two backend nodes`);

interface Proc {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(name: string, cmd: string, args: string[], env: Record<string, string>): Proc {
  let out = '';
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { name, child, output: () => out, exited };
}

async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
  await p.exited;
  clearTimeout(timer);
}

async function waitFor200(url: string, p: Proc, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited before ${url} answered:\n${p.output()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${p.output()}`);
}

/**
 * The example configuration with the compose replicas replaced by loopback ports, a loopback listen port and a
 * response header naming the backend that answered (for the test only), inside a minimal nginx.conf.
 */
function localNginx(dir: string, ports: number[], listen: number): string {
  const servers = (indent: string, params: string) =>
    ports.map((p) => `${indent}server 127.0.0.1:${p}${params.replace(/\s*\bresolve\b/, '')};\n`).join('');
  const conf = nginxConf
    .replace(
      /^( *)server backend-1:3000([^;]*);\n(?: *server backend-\d+:3000[^;]*;\n)*/gm,
      (_m, indent: string, params: string) => servers(indent, params),
    )
    .replace(/^resolver .*;\n/m, '')
    .replace(
      /^( *)listen 80;$/m,
      `$1listen 127.0.0.1:${listen};\n$1add_header X-Spades-Upstream $upstream_addr always;`,
    );
  if (/server backend-|listen 80;/.test(conf)) throw new Error('upstream servers not replaced');
  writeFileSync(join(dir, 'spades.conf'), conf);
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, t));
    chmodSync(join(dir, t), 0o777); // the workers may run as another user than the master
  }
  const main = join(dir, 'nginx.conf');
  writeFileSync(
    main,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/spades.conf;
}
`,
  );
  return main;
}

function connect(url: string, transports: string[], token: string): Promise<Socket> {
  return new Promise((res, rej) => {
    const s = io(url, { transports, auth: { token }, reconnection: false, timeout: 10_000, forceNew: true });
    const timer = setTimeout(() => {
      s.close();
      rej(new Error(`no 'authenticated' over ${transports.join('+')} within 15 s`));
    }, 15_000);
    s.once('authenticated', (p: { success?: boolean; message?: string }) => {
      clearTimeout(timer);
      if (p?.success === false) {
        s.close();
        rej(new Error(`authentication refused: ${p.message}`));
      } else res(s);
    });
    s.once('connect_error', (e: Error) => {
      clearTimeout(timer);
      s.close();
      rej(e);
    });
  });
}

describe.skipIf(!!skipReason)('nginx example in front of two backend nodes (PostgreSQL + Redis)', () => {
  const procs: Proc[] = [];
  let nodes: { id: string; port: number; proc: Proc }[] = [];
  let nginx: Proc;
  let base = '';
  let dir = '';
  let dbName = '';
  let admin: Client;

  beforeAll(async () => {
    buildBackendOnce();
    dir = mkdtempSync(join(tmpdir(), 'spades-nginx-'));
    chmodSync(dir, 0o755);
    dbName = `spades_scale_${process.pid}_${randomBytes(3).toString('hex')}`;
    admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const dbUrl = new URL(TEST_DATABASE_URL!);
    dbUrl.pathname = `/${dbName}`;
    const listen = await freePort();
    base = `http://127.0.0.1:${listen}`;
    const secret = randomBytes(32).toString('base64url');
    // Both replicas run the container's entrypoint (migrations at the same time, serialised by an advisory lock).
    nodes = [];
    for (const id of ['node-a', 'node-b']) {
      const port = await freePort();
      const proc = start(id, join(__dirname, 'docker-entrypoint.sh'), [], {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        NODE_ID: id,
        DATABASE_URL: dbUrl.toString(),
        REDIS_URL: REDIS_URL!,
        JWT_SECRET: secret,
        TRUST_PROXY: '1',
        METRICS_TOKEN: METRICS_TOKEN,
        CLIENT_URL: base,
        DATA_DIR: join(dir, `data-${id}`),
        BOT_WORKERS: '1',
      });
      procs.push(proc);
      nodes.push({ id, port, proc });
    }
    await Promise.all(nodes.map((n) => waitFor200(`http://127.0.0.1:${n.port}/health/ready`, n.proc, 120_000)));
    const main = localNginx(
      dir,
      nodes.map((n) => n.port),
      listen,
    );
    const check = spawnSync(nginxBin!, ['-t', '-p', dir, '-c', main, '-e', 'stderr'], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
    nginx = start('nginx', nginxBin!, ['-p', dir, '-c', main, '-e', 'stderr'], {});
    procs.push(nginx);
    await waitFor200(`${base}/health`, nginx, 15_000);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(procs.map(stop));
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const upstreamOf = (r: Response) => r.headers.get('x-spades-upstream');
  const addr = (port: number) => `127.0.0.1:${port}`;

  it('spreads stateless requests (/health, the API) over both nodes', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 8; i++) {
      const r = await fetch(`${base}/health`);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ status: 'ok' });
      seen.add(upstreamOf(r));
    }
    expect([...seen].sort()).toEqual(nodes.map((n) => addr(n.port)).sort());
  });

  it('refuses /metrics from outside (even with the token); each node serves its own with the token', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: metricsAuth })).status).toBe(403);
    for (const n of nodes) {
      expect((await fetch(`http://127.0.0.1:${n.port}/metrics`)).status).toBe(401);
      const r = await fetch(`http://127.0.0.1:${n.port}/metrics`, { headers: metricsAuth });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('spades_live_tables');
    }
  });

  it('keeps the socket.io requests of one client on one node (long-polling needs it)', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${base}/socket.io/?EIO=4&transport=polling&t=${i}`);
      expect(r.status).toBe(200);
      const open = /^0(\{.*\})$/.exec(await r.text()); // an engine.io handshake: 0{"sid":…}
      expect(open).not.toBeNull();
      const { sid } = JSON.parse(open![1]) as { sid: string };
      seen.add(upstreamOf(r));
      // The next request of that session (here: closing it) names the sid and must reach the same node: another one
      // would answer 400 "Session ID unknown".
      const close = await fetch(`${base}/socket.io/?EIO=4&transport=polling&sid=${encodeURIComponent(sid)}`, {
        method: 'POST',
        body: '1',
      });
      expect(close.status).toBe(200);
      expect(await close.text()).toBe('ok');
      seen.add(upstreamOf(close));
    }
    expect(seen.size).toBe(1);
    expect(nodes.map((n) => addr(n.port))).toContain([...seen][0]);
  });

  it('a registered player signs in over socket.io through nginx: WebSocket (the web client) and long-polling', async () => {
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'scale_user', email: 'scale@example.com', password: 'scale-out-pass-1' }),
    });
    expect(reg.status).toBe(201);
    const { token } = (await reg.json()) as { token: string };
    // the token a node issued is accepted by the other one (shared JWT_SECRET)
    for (const n of nodes) {
      const me = await fetch(`http://127.0.0.1:${n.port}/api/auth/profile`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status, n.id).toBe(200);
    }
    const sockets = () =>
      Promise.all(
        nodes.map(async (n) => {
          const text = await (await fetch(`http://127.0.0.1:${n.port}/metrics`, { headers: metricsAuth })).text();
          return Number(/^spades_sockets (\d+)/m.exec(text)?.[1] ?? NaN);
        }),
      );
    for (const transports of [['websocket', 'polling'], ['polling']]) {
      const before = await sockets();
      const s = await connect(base, transports, token);
      try {
        expect(s.connected).toBe(true);
        expect(s.io.engine.transport.name).toBe(transports[0]);
        // the socket sits on exactly one node
        const after = await sockets();
        expect(after.map((n, i) => n - before[i]).sort()).toEqual([0, 1]);
      } finally {
        s.close();
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);
});
