/**
 * Invitations to a table (issue #12), run on the node that drives the table: the host's invite link (created on
 * first use, renewed, revoked), an in-app invitation of a friend (optionally holding a seat) and its refusal. The
 * pending invitations a user sees are read by lobby-queries.ts.
 */
import { Injectable } from '@nestjs/common';
import { LocalTables } from './local-tables.service';
import { hostId, newInviteToken, Participant } from './table';

@Injectable()
export class TableInvitations {
  constructor(private readonly local: LocalTables) {}

  /** The invite token (host only), created on first use; `renew`: a new one (the old link stops working). */
  async inviteToken(gameId: string, userId: string, renew = false): Promise<string> {
    const rec = await this.local.record(gameId);
    if (!renew && rec.inviteToken && hostId(rec) === userId) return rec.inviteToken;
    const token = newInviteToken();
    await this.local.command(
      gameId,
      { type: renew ? 'renew_invite_link' : 'create_invite_link', actor: userId },
      (draft) => {
        this.local.machine.setInviteToken(draft, userId, token);
      },
    );
    return token;
  }

  /** Host only: the invite link stops working (a new one can be made later). */
  revokeInviteToken(gameId: string, userId: string): Promise<{ success: true }> {
    return this.local.command(gameId, { type: 'revoke_invite_link', actor: userId }, (draft) => {
      this.local.machine.setInviteToken(draft, userId, null);
      return { success: true as const };
    });
  }

  /** In-app invitation of another user (the caller checked the friendship: ParticipantsService.assertCanInvite). */
  invitePlayer(
    gameId: string,
    from: Participant,
    to: Participant,
    reserveSeat: boolean,
  ): Promise<{ ok: true; reservedSeat: number | null }> {
    return this.local.command(
      gameId,
      { type: 'invite_player', actor: from.userId, payload: { userId: to.userId, reserveSeat } },
      (draft, fx) => {
        const inv = this.local.machine.invite(draft, fx, from, to, reserveSeat);
        return { ok: true as const, reservedSeat: inv.seat };
      },
    );
  }

  declineInvitation(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.local.command(gameId, { type: 'decline_invitation', actor: userId }, (draft, fx) => {
      this.local.machine.decline(draft, fx, userId);
      return { ok: true as const };
    });
  }
}
