import {
  ACCOUNT_ROLE_LABELS,
  ADMIN_SANCTIONS_PATH,
  COIN_CORRECTION_MAX,
  type AccountRoleName,
  type CoinCorrectionRequest,
  type PlayerDetail,
  type PlayerSanctionBody,
  type RoleChangeRequest,
  type Sanction,
} from '@spades/common';
import { api } from '../lib/api';
import { coinsText, sanctionLabel } from './format';
import {
  ReasonDialog,
  SanctionFields,
  draftReady,
  draftToRequest,
  type SanctionDraft,
  type SanctionKindChoice,
} from './ReasonDialog';

export type PlayerDialog =
  | { kind: 'sanction'; draft: SanctionDraft }
  | { kind: 'lift'; sanction: Sanction }
  | { kind: 'sessions' }
  | { kind: 'coins'; direction: 'grant' | 'deduct'; amount: string }
  | { kind: 'role'; role: AccountRoleName };

/** The dialogs of the player page's actions: each asks for a reason and posts one console action. */
export function PlayerDialogs({
  dialog,
  setDialog,
  player,
  base,
  done,
}: {
  dialog: PlayerDialog | null;
  setDialog: (d: PlayerDialog | null) => void;
  player: PlayerDetail;
  base: string;
  done: (text: string) => void;
}) {
  const close = (o: boolean) => !o && setDialog(null);
  const name = player.username;
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'sanction': {
      const d = dialog.draft;
      const titles: Record<SanctionKindChoice, string> = {
        warn: `Warn ${name}`,
        mute: `Mute ${name}`,
        ban: `Ban ${name}`,
        rename: `Rename ${name}`,
      };
      return (
        <ReasonDialog
          open
          onOpenChange={close}
          title={titles[d.kind]}
          description={
            d.kind === 'ban'
              ? 'Their open connections close now, a seated game continues with a bot in their seat, and their sign-ins are refused until the ban ends.'
              : d.kind === 'mute'
                ? 'They cannot write in lobby or table chat until the mute ends; they are told why and until when.'
                : d.kind === 'rename'
                  ? 'Their name changes now and they are told why.'
                  : 'They are shown the warning with your reason.'
          }
          confirmLabel={titles[d.kind]}
          danger={d.kind === 'ban'}
          canSubmit={draftReady(d)}
          onSubmit={async (reason) => {
            const body: PlayerSanctionBody = draftToRequest(d, reason);
            await api.post(`${base}/sanctions`, body);
            done(`${titles[d.kind]}: done`);
          }}
        >
          <SanctionFields draft={d} onChange={(draft) => setDialog({ kind: 'sanction', draft })} />
        </ReasonDialog>
      );
    }
    case 'lift':
      return (
        <ReasonDialog
          open
          onOpenChange={close}
          title={`Lift: ${sanctionLabel(dialog.sanction)}`}
          confirmLabel="Lift"
          onSubmit={async (reason) => {
            await api.post(`${ADMIN_SANCTIONS_PATH}/${dialog.sanction.id}/lift`, { reason });
            done('Lifted');
          }}
        />
      );
    case 'sessions':
      return (
        <ReasonDialog
          open
          onOpenChange={close}
          title={`Revoke ${name}'s sessions`}
          description="Every session token issued until now stops working and their open connections close; they can sign in again."
          confirmLabel="Revoke sessions"
          danger
          onSubmit={async (reason) => {
            await api.post(`${base}/revoke-sessions`, { reason });
            done('Sessions revoked');
          }}
        />
      );
    case 'coins': {
      const amount = Number(dialog.amount);
      const ok = Number.isSafeInteger(amount) && amount >= 1 && amount <= COIN_CORRECTION_MAX;
      return (
        <ReasonDialog
          open
          onOpenChange={close}
          title={`Correct ${name}'s coins`}
          description={`A ledger transfer ${dialog.direction === 'grant' ? 'from' : 'to'} the house account. Balance now: ${coinsText(player.coins.balance)}.`}
          confirmLabel={dialog.direction === 'grant' ? 'Grant coins' : 'Deduct coins'}
          canSubmit={ok}
          onSubmit={async (reason) => {
            const body: CoinCorrectionRequest = { direction: dialog.direction, amount, reason };
            await api.post(`${base}/coins`, body);
            done(`${dialog.direction === 'grant' ? 'Granted' : 'Deducted'} ${coinsText(amount)} coins`);
          }}
        >
          <div className="segmented" role="radiogroup" aria-label="Direction">
            {(['grant', 'deduct'] as const).map((dir) => (
              <button
                key={dir}
                type="button"
                role="radio"
                aria-checked={dialog.direction === dir}
                className={dialog.direction === dir ? 'active' : ''}
                onClick={() => setDialog({ ...dialog, direction: dir })}
              >
                {dir === 'grant' ? 'Grant' : 'Deduct'}
              </button>
            ))}
          </div>
          <label className="field">
            <span>Amount (whole coins)</span>
            <input
              inputMode="numeric"
              value={dialog.amount}
              onChange={(e) => setDialog({ ...dialog, amount: e.target.value.replace(/[^\d]/g, '') })}
              required
            />
          </label>
        </ReasonDialog>
      );
    }
    case 'role':
      return (
        <ReasonDialog
          open
          onOpenChange={close}
          title={`Role of ${name}`}
          description={`Now: ${ACCOUNT_ROLE_LABELS[player.role]}. Moderators work reports, players and tables; admins also roles, settings, coins and the audit log.`}
          confirmLabel="Change role"
          canSubmit={dialog.role !== player.role}
          onSubmit={async (reason) => {
            const body: RoleChangeRequest = { role: dialog.role, reason };
            await api.post(`${base}/role`, body);
            done(`${name} is now ${ACCOUNT_ROLE_LABELS[dialog.role]}`);
          }}
        >
          <RoleRadios value={dialog.role} onChange={(role) => setDialog({ kind: 'role', role })} />
        </ReasonDialog>
      );
  }
}

export function RoleRadios({ value, onChange }: { value: AccountRoleName; onChange: (r: AccountRoleName) => void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Role">
      {(['user', 'moderator', 'admin'] as const).map((r) => (
        <button
          key={r}
          type="button"
          role="radio"
          aria-checked={value === r}
          className={value === r ? 'active' : ''}
          onClick={() => onChange(r)}
        >
          {ACCOUNT_ROLE_LABELS[r]}
        </button>
      ))}
    </div>
  );
}
