import { useCallback, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api';
import { setStatusNow } from '../lib/blocked';
import { ConfirmDialog, useNotify } from './ui';

export type SocialAction = 'addFriend' | 'removeFriend' | 'block' | 'unblock';

const ENDPOINT: Record<SocialAction, { path: string; key: 'friendId' | 'blockId' }> = {
  addFriend: { path: '/api/social/friends/add', key: 'friendId' },
  removeFriend: { path: '/api/social/friends/remove', key: 'friendId' },
  block: { path: '/api/social/block', key: 'blockId' },
  unblock: { path: '/api/social/unblock', key: 'blockId' },
};

const QUESTION: Record<SocialAction, (n: string) => string> = {
  addFriend: (n) => `Add ${n} as a friend?`,
  removeFriend: (n) => `Remove ${n} from your friends?`,
  block: (n) => `Block ${n}? You will no longer see their chat messages.`,
  unblock: (n) => `Unblock ${n}?`,
};

export const ACTION_LABEL: Record<SocialAction, string> = {
  addFriend: 'Add friend',
  removeFriend: 'Remove friend',
  block: 'Block',
  unblock: 'Unblock',
};

/** §2/§4: which social actions a status offers. blocked → unblock; friend → remove + block; else add + block. */
export function actionsFor(status: 'friend' | 'blocked' | 'none'): SocialAction[] {
  if (status === 'blocked') return ['unblock'];
  if (status === 'friend') return ['removeFriend', 'block'];
  return ['addFriend', 'block'];
}

/** Social actions behind a Yes/No confirmation, then the endpoint, then a re-fetch of the user list. */
export function useSocialActions(onDone?: () => void): {
  ask: (a: SocialAction, target: { id: string; username: string }) => void;
  dialog: ReactNode;
} {
  const qc = useQueryClient();
  const notify = useNotify();
  const [pending, setPending] = useState<{ action: SocialAction; id: string; username: string } | null>(null);

  const ask = useCallback((action: SocialAction, target: { id: string; username: string }) => {
    setPending({ action, id: target.id, username: target.username });
  }, []);

  const run = async () => {
    const p = pending;
    setPending(null);
    if (!p) return;
    const ep = ENDPOINT[p.action];
    try {
      await api.post(ep.path, { [ep.key]: p.id });
      // issue #31: a block hides the player's lines already on screen at once (both chats read this list)
      if (p.action === 'block') setStatusNow(qc, p.id, 'blocked');
      else if (p.action === 'unblock') setStatusNow(qc, p.id, 'none');
    } catch {
      notify('Failed to perform action. Please try again.');
    }
    await qc.invalidateQueries({ queryKey: ['users'] });
    onDone?.();
  };

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title={pending ? ACTION_LABEL[pending.action] : ''}
      message={pending ? QUESTION[pending.action](pending.username) : ''}
      danger={pending?.action === 'block'}
      onYes={() => void run()}
      onNo={() => setPending(null)}
    />
  );
  return { ask, dialog };
}
