import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CONFIGURATION_DOC_PATH, ENV_SECTIONS, renderConfigurationDoc } from './config.docs';

describe('docs/configuration.md', () => {
  it('is the text generated from the config schema (run `npm run docs:config` after changing the schema)', () => {
    expect(readFileSync(CONFIGURATION_DOC_PATH, 'utf8')).toBe(renderConfigurationDoc());
  });

  it('describes every variable of every module schema', () => {
    const undocumented = ENV_SECTIONS.flatMap((section) =>
      Object.entries(section.schema.shape)
        .filter(([, field]) => !(field as z.ZodType).description)
        .map(([name]) => name),
    );
    expect(undocumented).toEqual([]);
    expect(ENV_SECTIONS.map((s) => s.source)).toEqual([
      'config/config.schema.ts',
      'games/games.config.ts',
      'ratings/ratings.config.ts',
      'matchmaking/matchmaking.config.ts',
      'bots/bots.config.ts',
      'auth/sso.config.ts',
      'auth/sso.config.ts',
    ]);
  });

  it('renders the modules that read their own variables, and no "read elsewhere" list', () => {
    const doc = renderConfigurationDoc();
    expect(doc).not.toContain('Read elsewhere');
    expect(doc).toMatch(
      /\| `TURN_TIMEOUT_MS` +\| `30000` +\| must be an integer >= 1 +\| turn timer of a human seat, ms +\|/,
    );
    expect(doc).toMatch(/\| `RATING_BAN_MAX_MINUTES` +\| `10080` +\| must be an integer >= 1 +\|/);
    expect(doc).toMatch(
      /\| `MATCHMAKING_TICK_MS` +\| `1000` +\| must be a number from 50 to 60000 \(else the default\) +\|/,
    );
    expect(doc).toMatch(/\| `BOT_WORKER_NICE` +\| `19` +\| must be an integer from 0 to 19 +\|/);
    expect(doc).toMatch(/\| `BOT_WORKER_SCHED` +\| `idle` +\| must be idle or normal +\|/);
    expect(doc).toMatch(/\| `BOT_CPU_SHARE` +\| `0.8` +\| must be a number from 0 to 1 +\|/);
    expect(doc).toMatch(/\| `GITHUB_API_URL` +\| `https:\/\/api.github.com` +\| must be an absolute URL +\|/);
    expect(doc).toMatch(/\| `OIDC_<ID>_SCOPE` +\| `openid email profile` +\| must include openid +\|/);
    expect(doc).toMatch(/\| `OIDC_PROVIDERS` +\| unset +\| must be 2-20 lower-case letters\/digits/);
  });

  it('gives each variable its default, what it accepts and its description', () => {
    const doc = renderConfigurationDoc();
    expect(doc).toMatch(/\| `PORT` +\| `3000` +\| must be an integer between 0 and 65535 +\| HTTP port/);
    expect(doc).toMatch(/\| `JWT_EXPIRES_IN` +\| `7d` +\|/);
    expect(doc).toMatch(/\| `DATABASE_URL` +\| unset +\| must start with postgres:\/\/ or postgresql:\/\/ +\|/);
    expect(doc).toMatch(
      /\| `LOG_LEVEL` +\| `info` +\| must be one of fatal, error, warn, info, debug, trace, silent +\|/,
    );
    expect(doc).toMatch(/\| `SERVER_DESCRIPTION` +\| empty +\| must be at most 500 characters +\|/);
  });

  it('renders a variable added to the schema, with a pipe in its text escaped', () => {
    const schema = z.object({
      EXTRA_WORD: z
        .preprocess(
          (v) => (v === undefined ? 'seven' : v),
          z.string().regex(/^[a-z]+$/, 'EXTRA_WORD must be lower-case letters'),
        )
        .describe('a | b'),
    });
    expect(renderConfigurationDoc([{ title: 'Extra', source: 'extra.ts', schema }])).toContain(
      '| `EXTRA_WORD` | `seven` | must be lower-case letters | a \\| b       |',
    );
  });
});
