// Links that name a server other than the current one (issue #30) are never followed silently: main keeps them
// pending, the renderer asks the player (name, address, "not the current one"), and only an accepted link
// switches server (adding it first when it is new, after the same server-info check as "Add a server").
import type { DeepLink, ServerLinkRequest, ServerProbe } from '../shared/bridge';
import type { Logger } from './logger';
import type { ServerRegistry } from './servers';

type LinkWithServer = Extract<DeepLink, { server?: string }>;

export interface ServerLinkGateDeps {
  registry: ServerRegistry;
  newId(): string;
  /** Make `serverId` current and load `path` on it (main reloads the window). */
  openOn(serverId: string, path: string): void;
  log: Logger;
}

export interface ServerLinkGate {
  hasCurrent(): boolean;
  /** Whether the link can be delivered as is (no server, or the current one). */
  isForCurrent(link: DeepLink): boolean;
  /** The request the renderer shows for a link of another server. */
  request(link: LinkWithServer & { server: string }): DeepLink;
  /** The player's answer. Accepting resolves with the server check's outcome (ok: switched), declining with null. */
  answer(id: unknown, accept: unknown): Promise<ServerProbe | null>;
}

/** Pending requests kept at once (a link-spamming page cannot grow this). */
export const MAX_PENDING_LINKS = 5;

function targetOf(link: LinkWithServer): ServerLinkRequest['target'] {
  if (link.kind !== 'table') return 'login';
  return link.invite ? 'invite' : link.spectate ? 'spectate' : 'table';
}

export function createServerLinkGate(deps: ServerLinkGateDeps): ServerLinkGate {
  const pending = new Map<string, LinkWithServer & { server: string }>();
  return {
    hasCurrent: () => deps.registry.current() !== null,
    isForCurrent(link) {
      if (!('server' in link) || !link.server) return true;
      return deps.registry.current()?.address === link.server;
    },
    request(link) {
      if (pending.size >= MAX_PENDING_LINKS) pending.delete(pending.keys().next().value as string);
      const id = deps.newId();
      pending.set(id, link);
      const request: ServerLinkRequest = {
        id,
        server: link.server,
        known: deps.registry.byAddress(link.server),
        current: deps.registry.current(),
        target: targetOf(link),
        ...(link.kind === 'table' ? { gameId: link.gameId } : {}),
      };
      return { kind: 'server-link', request };
    },
    async answer(id, accept) {
      const link = typeof id === 'string' ? pending.get(id) : undefined;
      if (!link)
        return { ok: false, error: 'unknown_server', message: 'This link is no longer waiting for an answer.' };
      pending.delete(id as string);
      if (accept !== true) {
        deps.log.info(`declined a link for ${link.server}`);
        return null;
      }
      // The same check as adding by hand (also refreshes a saved server and catches a protocol change).
      const probe = await deps.registry.add(link.server);
      if (!probe.ok || !probe.server) return probe;
      deps.openOn(probe.server.id, link.path);
      return probe;
    },
  };
}
