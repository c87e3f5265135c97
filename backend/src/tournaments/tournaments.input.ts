/**
 * Issue #27: the schema of every inbound tournament message (issue #29: one DTO per message, checked before the
 * handler runs: 400 `{ message, code: INVALID_PAYLOAD }`, nothing changes). The texts are the ones clients know:
 * common's `validateTournamentInput` for a creation, `staffReason` for a cancellation.
 */
import { validateTournamentInput, type CreateTournamentInput, type TournamentKind } from '@spades/common';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PayloadInput, Satisfies } from '../common/payload';
import { staffReason } from '../settings/staff-reason';

export class WatchTournamentInput extends PayloadInput {
  @IsUUID('all', { message: 'tournamentId must be a tournament id' })
  tournamentId!: string;
}

/** The settings as `validateTournamentInput` sees them for this kind (the service checks again, with its defaults). */
const configCheck = (kindOf: (input: CreateTournamentInput) => TournamentKind) => (input: unknown) => {
  const body = input as CreateTournamentInput;
  const checked = validateTournamentInput(body, { kind: kindOf(body), now: Date.now(), createdBy: '' });
  return checked.ok ? checked : { ok: false, message: checked.message };
};

/** `POST /api/tournaments`: a player's sit-and-go (the kind comes from the route, not the body). */
export class CreateSitAndGoInput extends PayloadInput implements Partial<CreateTournamentInput> {
  @Satisfies(configCheck(() => 'sit_and_go'), { whole: true })
  name!: string;
}

const KINDS: TournamentKind[] = ['scheduled', 'sit_and_go'];

/** `POST /api/admin/tournaments`: a scheduled tournament (or, with `kind: sit_and_go`, a sit-and-go). */
export class CreateConsoleTournamentInput extends PayloadInput implements Partial<CreateTournamentInput> {
  @IsOptional()
  @IsIn(KINDS, { message: 'kind must be scheduled or sit_and_go' })
  kind?: TournamentKind;

  @Satisfies(configCheck((b) => (b.kind === 'sit_and_go' ? 'sit_and_go' : 'scheduled')), { whole: true })
  name!: string;
}

/** `POST /api/tournaments/:id/register`: PARTNERS may name a friend as the partner (null or absent: paired later). */
export class RegisterTournamentBody extends PayloadInput {
  @IsOptional()
  @IsUUID('all', { message: 'partnerId must be a user id' })
  partnerId?: string | null;
}

/** `POST /api/admin/tournaments/:id/cancel` `{ reason }`. */
export class CancelTournamentInput extends PayloadInput {
  @Satisfies(staffReason)
  reason!: string;
}
