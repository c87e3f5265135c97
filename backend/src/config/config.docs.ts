import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { envSchema } from './config.schema';
import { gamesEnvSchema } from '../games/games.config';
import { ratingsEnvSchema } from '../ratings/ratings.config';
import { matchmakingEnvSchema } from '../matchmaking/matchmaking.config';
import { botsEnvSchema } from '../bots/bots.config';
import { oidcProviderEnvSchema, ssoEnvSchema } from '../auth/sso.config';

/** Where `npm run docs:config` writes the page (and where config.docs.spec.ts compares it). */
export const CONFIGURATION_DOC_PATH = resolve(__dirname, '../../../docs/configuration.md');

interface ZodDef {
  type: string;
  catchValue?: unknown;
  in?: ZodNode;
  innerType?: ZodNode;
  transform?: (v: unknown, ctx: unknown) => unknown;
}
interface ZodNode {
  _zod: { def: ZodDef };
}

/**
 * The value the schema substitutes for an absent variable: every default in config.schema.ts is written as a
 * `z.preprocess` that maps `undefined` to it, so the first transform down the pipe gives it in the input's form
 * (`7d`, not the 604800 seconds it becomes). `undefined` = no default (unset).
 */
function defaultOf(schema: z.ZodType): unknown {
  const meta = z.globalRegistry.get(schema);
  if (meta && 'docDefault' in meta) return meta.docDefault;
  let node: ZodNode | undefined = schema as unknown as ZodNode;
  while (node) {
    const def: ZodDef = node._zod.def;
    if (def.type === 'transform' && def.transform) return def.transform(undefined, { issues: [], value: undefined });
    node = def.in ?? def.innerType;
  }
  return undefined;
}

/** What the schema accepts, in the words it refuses a bad value with (the same line the server prints at start). */
function allowedOf(name: string, schema: z.ZodType): string {
  const def = (schema as unknown as ZodNode)._zod.def;
  if (def.type === 'catch' && def.innerType) {
    const inner = allowedOf(name, def.innerType as unknown as z.ZodType);
    return inner === 'any text' ? inner : `${inner} (else the default)`;
  }
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const probe of ['~', 'x'.repeat(5000)]) {
    const r = schema.safeParse(probe);
    if (!r.success) {
      const message = r.error.issues[0]?.message ?? '';
      return message
        .replace(new RegExp(`^${escaped}:? (".*?" )?`), '')
        .replace(/ \(not an id:.*$/s, '')
        .replace(/ \(got .*\)$/s, '')
        .replace(/^Too big: expected string to have <=(\d+) characters$/, 'at most $1 characters');
    }
  }
  return 'any text';
}

function formatDefault(value: unknown): string {
  if (value === undefined) return 'unset';
  if (value === '') return 'empty';
  return '`' + String(value) + '`';
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** A Markdown table padded the way Prettier pads one, so `prettier --check` leaves the page as generated. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** One table of the page: a module's environment schema (its single source of truth) and where it lives. */
export interface EnvSection {
  title: string;
  /** The schema's file, relative to backend/src (linked from the page). */
  source: string;
  schema: z.ZodObject;
  /** Shown before each key (patterned names: `OIDC_<ID>_` + `ISSUER`). */
  prefix?: string;
  intro?: string;
}

export const ENV_SECTIONS: EnvSection[] = [
  { title: 'Server', source: 'config/config.schema.ts', schema: envSchema },
  {
    title: 'Tables: timers, bots and invitations',
    source: 'games/games.config.ts',
    schema: gamesEnvSchema,
    intro: 'A bad value stops the server with the first problem.',
  },
  {
    title: 'Leaver bans',
    source: 'ratings/ratings.config.ts',
    schema: ratingsEnvSchema,
    intro: 'A bad value stops the server with the first problem.',
  },
  {
    title: 'Quick play',
    source: 'matchmaking/matchmaking.config.ts',
    schema: matchmakingEnvSchema,
    intro:
      'A bad value falls back to the default (the queue keeps running on a typo). See [quick play](quick-play.md).',
  },
  {
    title: "Strong bots' worker pool",
    source: 'bots/bots.config.ts',
    schema: botsEnvSchema,
    intro: 'A bad value stops the server with the first problem.',
  },
  { title: 'Single sign-on', source: 'auth/sso.config.ts', schema: ssoEnvSchema },
  {
    title: 'Single sign-on: each OpenID Connect provider',
    source: 'auth/sso.config.ts',
    schema: oidcProviderEnvSchema('OIDC_<ID>_'),
    prefix: 'OIDC_<ID>_',
    intro:
      'For each id in `OIDC_PROVIDERS`, with `<ID>` the id in upper case (`OIDC_PROVIDERS=google` reads `OIDC_GOOGLE_ISSUER`, …).',
  },
];

const HEADER = `# Configuration

<!-- Generated from the modules' environment schemas (listed below) by \`npm run docs:config\`; do not edit by hand.
     backend/src/config/config.docs.spec.ts fails when this file and the schemas differ. -->

The server reads its configuration from environment variables and validates them at start-up: a bad value stops it
with one line per problem (the "allowed" column below is that line). An empty value (\`FOO=\` in a compose file)
counts as unset. Each module keeps its own schema; to change a variable's default, range or text, edit the file named
under its table (its \`.describe()\`), then run \`npm run docs:config\`.
`;

const FOOTER = `
Container hosting (\`build/.env\`: \`JWT_SECRET\`, \`POSTGRES_PASSWORD\`, \`SPADES_PORT\`, …) is described in
[build/README.md](../build/README.md); several nodes in [scaling.md](scaling.md).
`;

function renderSection(section: EnvSection): string {
  const prefix = section.prefix ?? '';
  const rows = Object.entries(section.schema.shape).map(([key, field]) => {
    const s = field as z.ZodType;
    const name = prefix + key;
    return ['`' + name + '`', formatDefault(defaultOf(s)), allowedOf(name, s), s.description ?? ''].map(escapeCell);
  });
  const file = section.source.split('/').pop();
  return [
    `## ${section.title}`,
    '',
    ...(section.intro ? [section.intro, ''] : []),
    `Schema: [${file}](../backend/src/${section.source}).`,
    '',
    table(['variable', 'default', 'allowed', 'what it does'], rows),
  ].join('\n');
}

/** The whole text of docs/configuration.md, from the schemas alone (pure: no I/O). */
export function renderConfigurationDoc(sections: EnvSection[] = ENV_SECTIONS): string {
  return HEADER + sections.map((s) => '\n' + renderSection(s)).join('') + FOOTER;
}

/* `npm run docs:config` (tsx src/config/config.docs.ts): write the page. */
// `npm run docs:config` writes the page; `-- --check` (run by `npm run lint`) only compares and fails when it differs.
if (require.main === module) {
  const page = renderConfigurationDoc();
  if (process.argv.includes('--check')) {
    if (readFileSync(CONFIGURATION_DOC_PATH, 'utf8') !== page) {
      console.error(`${CONFIGURATION_DOC_PATH} does not match the config schemas: run \`npm run docs:config\``);
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIGURATION_DOC_PATH, page);
    console.log(`wrote ${CONFIGURATION_DOC_PATH}`);
  }
}
