import type { QueueTicket, StakeBand } from '@spades/common';

/** A player of a ticket as the server keeps it (the matcher needs only id + rating). */
export interface TicketMeta {
  /** Node of the socket that queued (cluster mode), null on one node. */
  node: string | null;
  stakeBand: StakeBand;
  names: Record<string, string>;
}

export type StoredTicket = QueueTicket & { meta: TicketMeta };

export type QueueOp = { kind: 'join'; ticket: StoredTicket } | { kind: 'leave'; id: string };

export interface StoredInvite {
  fromId: string;
  fromName: string;
  mode: QueueTicket['mode'];
  stake: StakeBand;
  pace: QueueTicket['pace'];
  at: number;
}
