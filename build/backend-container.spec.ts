// Static checks of the backend image and the compose file (Docker itself does not run on the team's machines;
// the entrypoint is exercised for real in docker-entrypoint.spec.ts).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';

const root = resolve(__dirname, '..');
const dockerfile = readFileSync(join(__dirname, 'backend.Dockerfile'), 'utf8');
// Join continuation lines, drop comments.
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages: { from: string; name?: string; lines: string[] }[] = [];
for (const line of instructions) {
  const m = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
  if (m) stages.push({ from: m[1], name: m[2], lines: [] });
  else if (stages.length) stages[stages.length - 1].lines.push(line);
}
const runtime = stages[stages.length - 1];
const pkg = (p: string) =>
  JSON.parse(readFileSync(join(root, p), 'utf8')) as { name: string; scripts: Record<string, string> };

describe('build/backend.Dockerfile', () => {
  it('is multi-stage: a full-workspace build stage and a runtime stage', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const build = stages[0].lines.join('\n');
    expect(build).toMatch(/^RUN npm ci /m); // the committed lockfile, exactly
    expect(build).toMatch(/^COPY \. \.$/m);
    // The projects it builds exist under these names, with these scripts.
    expect(build).toContain(`-p ${pkg('common/package.json').name} ${pkg('backend/package.json').name}`);
    expect(pkg('desktop/package.json').scripts['build:web']).toBeTruthy();
    expect(build).toContain('npm run build:web -w desktop');
  });

  it('runtime stage: production dependencies only, built artifacts and the web app copied from the build stage', () => {
    const lines = runtime.lines.join('\n');
    expect(lines).toMatch(/^RUN npm ci --omit=dev --workspace backend/m);
    expect(lines).not.toMatch(/COPY \. \./);
    for (const dir of ['common/dist', 'backend/dist', 'desktop/dist/web']) {
      expect(lines).toContain(`COPY --from=build /src/${dir} ${dir}`);
    }
    // The backend serves the web app from ../../desktop/dist/web relative to backend/dist.
    expect(readFileSync(join(root, 'backend/src/app.module.ts'), 'utf8')).toMatch(/'desktop',\s*'dist',\s*'web'/);
  });

  it('runs as a non-root user', () => {
    const user = runtime.lines.filter((l) => l.startsWith('USER ')).map((l) => l.slice(5).trim());
    expect(user.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(user[user.length - 1]);
  });

  it('has a HEALTHCHECK on the readiness route /health/ready and the entrypoint script that migrates then starts', () => {
    const hc = runtime.lines.find((l) => l.startsWith('HEALTHCHECK'));
    expect(hc).toMatch(/\/health\/ready'/);
    expect(readFileSync(join(root, 'backend/src/health/health.controller.ts'), 'utf8')).toMatch(/@Get\('ready'\)/);
    expect(runtime.lines).toContain('ENTRYPOINT ["/app/build/docker-entrypoint.sh"]');
    expect(runtime.lines.join('\n')).toContain(
      'COPY --chmod=755 build/docker-entrypoint.sh build/docker-entrypoint.sh',
    );
    const script = readFileSync(join(__dirname, 'docker-entrypoint.sh'), 'utf8');
    const migrate = script.indexOf('node backend/dist/migrate.js');
    // the server starts with its Node flags (issue #10: heap bounds), printed by the built node-flags module
    const start = script.indexOf('exec node $(node backend/dist/config/node-flags.js) backend/dist/main.js');
    expect(migrate).toBeGreaterThan(0);
    expect(start).toBeGreaterThan(migrate);
  });

  it('runs `npm run admin|backup|restore -- …` inside the container: the root scripts and what they start are in the image', () => {
    for (const tool of ['admin', 'backup', 'restore'])
      expect(pkg('package.json').scripts[tool]).toBe(`node scripts/backend-tool.mjs ${tool}`);
    expect(runtime.lines).toContain('COPY --from=build /src/scripts/backend-tool.mjs scripts/backend-tool.mjs');
    const script = readFileSync(join(root, 'scripts/backend-tool.mjs'), 'utf8');
    expect(script).toContain("join(root, 'backend', 'dist', `${tool === 'restore' ? 'backup' : tool}.js`)");
    // built to backend/dist/admin.js and backend/dist/backup.js
    for (const entry of ['admin', 'backup']) expect(existsSync(join(root, `backend/src/${entry}.ts`))).toBe(true);
  });

  it('keeps node_modules, build outputs and secrets out of the build context', () => {
    const ignore = readFileSync(join(__dirname, 'backend.Dockerfile.dockerignore'), 'utf8').split('\n');
    for (const p of ['**/node_modules', '**/dist', '.git', '.env', '**/.env']) expect(ignore).toContain(p);
  });
});

interface ComposeService {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}

describe('build/compose.yml', () => {
  const compose = load(readFileSync(join(__dirname, 'compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };

  it('runs backend, PostgreSQL and Redis (and, in the `backup` profile, scheduled backups)', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['backend', 'backup', 'postgres', 'redis']);
    expect((compose.services.backup as { profiles?: string[] }).profiles).toEqual(['backup']);
    const b = compose.services.backend;
    expect(b.build).toEqual({ context: '..', dockerfile: 'build/backend.Dockerfile' });
    expect(existsSync(resolve(__dirname, b.build!.context, b.build!.dockerfile))).toBe(true);
    expect(b.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });

  it('gives the backend its configuration', () => {
    const env = compose.services.backend.environment!;
    for (const k of [
      'DATABASE_URL',
      'REDIS_URL',
      'JWT_SECRET',
      'CLIENT_URL',
      'DISCORD_CLIENT_ID',
      'DISCORD_CLIENT_SECRET',
      'DISCORD_REDIRECT_URI',
    ]) {
      expect(env[k], k).toBeDefined();
    }
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/spades:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/spades$/);
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/); // required, no default secret
    // Every variable except REDIS_URL is read by the backend's config schema today.
    const schema = readFileSync(join(root, 'backend/src/config/config.schema.ts'), 'utf8');
    for (const k of Object.keys(env).filter((k) => k !== 'REDIS_URL')) expect(schema, k).toContain(`${k}:`);
  });

  it('keeps data in named volumes', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data', 'spades-data']);
    expect(compose.services.backend.volumes).toEqual(['spades-data:/app/data']);
    expect(compose.services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(compose.services.redis.volumes).toEqual(['redis-data:/data']);
  });

  it('health-checks the backend (readiness) and the database services', () => {
    expect(compose.services.backend.healthcheck!.test.join(' ')).toContain("'http://127.0.0.1:3000/health/ready'");
    expect(compose.services.backend.environment!.PORT).toBe('3000');
    expect(compose.services.postgres.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(compose.services.redis.healthcheck!.test.join(' ')).toContain('ping');
  });

  it('documents every variable compose reads in .env.example', () => {
    const text = readFileSync(join(__dirname, 'compose.yml'), 'utf8');
    const used = new Set([...text.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]));
    const example = readFileSync(join(__dirname, '.env.example'), 'utf8');
    for (const v of used) expect(example, v).toMatch(new RegExp(`^${v}=`, 'm'));
  });

  it('the backup service writes a timestamped backup and deletes the ones older than BACKUP_KEEP_DAYS', () => {
    const svc = compose.services.backup as { command: string[]; environment: Record<string, string>; image?: string };
    expect(svc.image).toBe(compose.services.backend.image);
    expect(svc.environment.DATABASE_URL).toBe(compose.services.backend.environment!.DATABASE_URL);
    // one turn of the loop, as compose hands it to sh ($$ → $), with a stand-in `node` that writes --out
    const script = svc.command[0].replace(/\$\$/g, '$').replace('while true; do', 'for once in 1; do');
    const dir = mkdtempSync(join(tmpdir(), 'spades-backup-loop-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'node'), '#!/bin/sh\nwhile [ "$1" != "--out" ]; do shift; done\necho backup > "$2"\n', {
      mode: 0o755,
    });
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    writeFileSync(join(backups, 'spades-20200101-000000.gz'), 'old');
    utimesSync(join(backups, 'spades-20200101-000000.gz'), new Date('2020-01-01'), new Date('2020-01-01'));
    writeFileSync(join(backups, 'keep-me.txt'), 'not a backup');
    const r = spawnSync('sh', ['-c', script.replace(/\/backups/g, backups)], {
      env: { PATH: `${bin}:${process.env.PATH}`, BACKUP_INTERVAL_HOURS: '0', BACKUP_KEEP_DAYS: '14' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const files = readdirSync(backups).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toBe('keep-me.txt');
    expect(files[1]).toMatch(/^spades-\d{8}-\d{6}\.gz$/);
    rmSync(dir, { recursive: true, force: true });
  });
});
