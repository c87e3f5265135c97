/**
 * The other nodes of a cluster (issue #13) as the games module sees them: whether this node is one of several,
 * the calls it answers for them (`serve`, one typed entry per bus method), their part of a cluster-wide answer
 * (`others`), where a new table opens (`place`) and where tables of other nodes were last seen. Alone (no
 * DATABASE_URL + REDIS_URL cluster) every answer is this node's.
 */
import { Injectable, Optional } from '@nestjs/common';
import type { GameInvitation } from '@spades/common';
import { ClusterBus, NodeUnreachable } from '../cluster/cluster.bus';
import { ClusterNodes } from '../cluster/cluster.nodes';
import type { GameListItem, TableView } from './protocol';
import type { Participant } from './table';
import { TableOwnership } from './table.ownership';
import type { OpenTournamentTableInput, TournamentTableState } from './tournament-tables';

/** What a node answers for the others, by bus method: the arguments as sent, the answer as returned. */
export interface PeerCalls {
  /** A table command for a table this node owns (table-router.ts), by command name. */
  games(command: string, args: unknown): Promise<unknown>;
  create(settings: unknown, creator: Participant, opts: { private?: boolean }): Promise<TableView>;
  openTournament(input: OpenTournamentTableInput): Promise<TournamentTableState & { gameId: string }>;
  list(userId: string | null): GameListItem[];
  invitations(userId: string): GameInvitation[];
  seated(userId: string): string | null;
  /** Tables handed over to this node by a draining one: load them now. */
  adopt(ids: string[]): Promise<true>;
}
export type PeerCall = keyof PeerCalls;
type PeerArgs<K extends PeerCall> = Parameters<PeerCalls[K]>;
type PeerAnswer<K extends PeerCall> = Awaited<ReturnType<PeerCalls[K]>>;

@Injectable()
export class ClusterPeers {
  /** Several nodes (issue #13): DATABASE_URL + REDIS_URL. */
  readonly enabled: boolean;
  /** Where tables of other nodes were last seen (gameId → node), until a forward says otherwise. */
  readonly owners = new Map<string, string>();

  constructor(
    @Optional() readonly ownership?: TableOwnership,
    @Optional() readonly bus?: ClusterBus,
    @Optional() readonly nodes?: ClusterNodes,
  ) {
    this.enabled = !!(ownership && bus?.enabled && nodes?.enabled);
  }

  /** The owner a table created here is stored with: this node in a cluster, else none. */
  get ownerId(): string | null {
    return this.enabled ? this.nodes!.nodeId : null;
  }

  /** The first ownership epoch of a table created here (the fencing token), none when alone. */
  get firstEpoch(): number | null {
    return this.enabled ? 1 : null;
  }

  /** Registers what this node answers to the others. The arguments come from JSON: read as the calls declare. */
  serve(calls: PeerCalls): void {
    const bus = this.bus!;
    bus.handle('games', (a) => calls.games(a[0] as string, a[1]));
    bus.handle('create', (a) => {
      const [settings, creator, opts] = a as [unknown, Participant, { private?: boolean } | null];
      return calls.create(settings, creator, opts ?? {});
    });
    bus.handle('openTournament', (a) => calls.openTournament(a[0] as OpenTournamentTableInput));
    bus.handle('list', (a) => calls.list((a[0] as string | null) ?? null));
    bus.handle('invitations', (a) => calls.invitations(a[0] as string));
    bus.handle('seated', (a) => calls.seated(a[0] as string));
    bus.handle('adopt', (a) => calls.adopt(a[0] as string[]));
  }

  /** Asks `node` (rejects with NodeUnreachable when it does not answer, RemoteError with its refusal). */
  call<K extends PeerCall>(node: string, name: K, args: PeerArgs<K>, timeoutMs?: number): Promise<PeerAnswer<K>> {
    return this.bus!.call<PeerAnswer<K>>(node, name, args, timeoutMs);
  }

  /** Asks every other live node (for their part of the lobby, seats, invitations); nodes that do not answer are skipped. */
  async others<K extends 'list' | 'invitations' | 'seated'>(name: K, args: PeerArgs<K>): Promise<PeerAnswer<K>[]> {
    if (!this.enabled) return [];
    const me = this.nodes!.nodeId;
    const answers = await Promise.all(
      this.nodes!.live()
        .filter((n) => n !== me)
        .map((n) =>
          this.call(n, name, args, 3000).then(
            (value) => ({ value }),
            () => null,
          ),
        ),
    );
    return answers.flatMap((a) => (a ? [a.value] : []));
  }

  /**
   * Opens a new table on the least-loaded node (this one when alone, when it is the least loaded, or when the
   * chosen node does not answer: `unreachable` may refuse instead).
   */
  async place<K extends 'create' | 'openTournament'>(
    name: K,
    args: PeerArgs<K>,
    here: () => Promise<PeerAnswer<K>>,
    unreachable?: () => void,
  ): Promise<PeerAnswer<K>> {
    if (this.enabled) {
      const target = this.nodes!.leastLoaded();
      if (target !== this.nodes!.nodeId) {
        try {
          const answer = await this.call(target, name, args);
          this.nodes!.notePlaced(target);
          return answer;
        } catch (e) {
          if (!(e instanceof NodeUnreachable)) throw e;
          unreachable?.();
        }
      }
    }
    return here();
  }
}
