// Desktop sign-ins in the system browser (Discord, GitHub, OpenID Connect; also linking one to an account): the
// renderer opens `<server>/api/auth/discord|oidc/<id>?…&client=desktop` outside the app and the server ends the
// round trip with `spades://auth/callback?token=…` (or `?error=`), a link that does not say which server it
// comes from. With several servers (issue #30) the player may have switched meanwhile, and the token would land
// on a server that never issued it. Main remembers on which server each sign-in was started and gives the callback
// that server: the server-link gate then opens it there (asking first when it is no longer the current one).
import type { DeepLink } from '../shared/bridge';
import type { Logger } from './logger';

/** A sign-in not completed within this time is forgotten (its callback then opens on the current server). */
export const LOGIN_ROUND_TTL_MS = 15 * 60_000;
/** Sign-ins remembered at once (a page that opens sign-ins in a loop cannot grow this). */
export const MAX_LOGIN_ROUNDS = 5;
/** The routes that start a desktop sign-in (they answer with spades://auth/callback). */
const START_ROUTE = /^\/api\/auth\/(?:discord|oidc\/[A-Za-z0-9_-]{1,64})$/;

export interface LoginRoundsDeps {
  /** The current server's address (normalized, no trailing slash), null before one is chosen. */
  currentAddress(): string | null;
  now(): number;
  log: Logger;
}

export interface LoginRounds {
  /** An address the renderer opens outside the app: a desktop sign-in on the current server is remembered. */
  opened(url: string): void;
  /**
   * A login callback (or its error) gets the server its sign-in was started on, the latest one still waiting.
   * One that names its server keeps it (the gate checks it); other links, and callbacks without a sign-in started
   * here (e.g. the app was restarted meanwhile), are returned as they are.
   */
  resolve(link: DeepLink): DeepLink;
}

export function createLoginRounds(deps: LoginRoundsDeps): LoginRounds {
  const rounds: { server: string; at: number }[] = [];
  const live = (): void => {
    const oldest = deps.now() - LOGIN_ROUND_TTL_MS;
    while (rounds.length && rounds[0].at < oldest) rounds.shift();
  };
  return {
    opened(url) {
      const server = deps.currentAddress();
      if (!server || !url.startsWith(`${server}/api/auth/`)) return;
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return;
      }
      const route = parsed.pathname.slice(new URL(server).pathname.replace(/\/+$/, '').length);
      if (!START_ROUTE.test(route) || parsed.searchParams.get('client') !== 'desktop') return;
      live();
      if (rounds.length >= MAX_LOGIN_ROUNDS) rounds.shift();
      rounds.push({ server, at: deps.now() });
      deps.log.info(`sign-in started in the browser on ${server}`);
    },
    resolve(link) {
      if (link.kind !== 'auth-callback' && link.kind !== 'auth-error') return link;
      live();
      if (link.server) {
        // the link says where it is from: that sign-in is over
        const i = rounds.findIndex((r) => r.server === link.server);
        if (i >= 0) rounds.splice(i, 1);
        else if (rounds.length) deps.log.warn(`login callback names ${link.server}, not where a sign-in was started`);
        return link;
      }
      const round = rounds.pop();
      if (!round) return link;
      return { ...link, server: round.server };
    },
  };
}
