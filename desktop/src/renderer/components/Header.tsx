import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { BarChart3, BookOpen, ChevronDown, ImageUp, LogOut, ShieldCheck, Trophy, UserRound } from 'lucide-react';
import { formatCoins, formatCoinsExact } from '@spades/common';
import { useSession } from '../session/session';
import { checkAvatarFile, compressAvatar } from '../lib/avatar';
import { Avatar, CoinIcon, Logo, useNotify } from './ui';

/** §5 avatar upload: checks, 200 px / JPEG 0.7 compression, PUT /api/auth/profile. */
export function useAvatarUpload() {
  const { updateProfile } = useSession();
  const notify = useNotify();
  const [uploading, setUploading] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkAvatarFile(file);
    if (problem) {
      notify(problem);
      return;
    }
    setUploading(true);
    try {
      const dataUrl = await compressAvatar(file);
      await updateProfile({ avatar: dataUrl });
    } catch {
      notify('Failed to upload avatar. Please try again.');
    } finally {
      setUploading(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  };
  const input = (
    <input
      ref={inputRef}
      type="file"
      accept="image/*"
      hidden
      data-testid="avatar-input"
      onChange={(e) => void onFile(e.target.files?.[0])}
    />
  );
  return { uploading, pick: () => inputRef.current?.click(), input };
}

export function CoinBalance({ coins }: { coins: number }) {
  return (
    <span
      className="coin-balance"
      aria-label={`${formatCoinsExact(coins)} coins`}
      title={`${formatCoinsExact(coins)} coins`}
    >
      <CoinIcon size={18} />
      <span className="num" data-testid="coin-balance">
        {formatCoins(coins)}
      </span>
    </span>
  );
}

export function Header({ onStats, onRules }: { onStats: () => void; onRules: () => void }) {
  const { user, logout } = useSession();
  const avatar = useAvatarUpload();
  if (!user) return null;
  return (
    <header className="app-header">
      <Link to="/" className="brand" aria-label="Spades lobby">
        <Logo size={32} withText />
      </Link>
      <nav className="header-nav">
        <Link to="/leaderboard" className="btn btn-ghost btn-sm">
          <Trophy size={16} aria-hidden="true" /> <span className="hide-narrow">Leaderboard</span>
        </Link>
        {(user.role === 'moderator' || user.role === 'admin') && (
          <Link to="/admin" className="btn btn-ghost btn-sm">
            <ShieldCheck size={16} aria-hidden="true" /> <span className="hide-narrow">Console</span>
          </Link>
        )}
      </nav>
      <div className="header-right">
        <CoinBalance coins={user.coins} />
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="user-trigger">
            <Avatar src={user.avatar} id={user.id} name={user.username} size={32} />
            <span className="hide-narrow user-name">{user.username}</span>
            {/* issue #31: named by what it shows (label-content-name-mismatch), "Account menu" for screen readers */}
            <span className="sr-only"> Account menu</span>
            <ChevronDown size={16} aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
              <DropdownMenu.Item className="menu-item" onSelect={avatar.pick} disabled={avatar.uploading}>
                <ImageUp size={16} /> {avatar.uploading ? 'Uploading...' : 'Change Avatar'}
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={onStats}>
                <BarChart3 size={16} /> My Stats
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={onRules}>
                <BookOpen size={16} /> Game Rules
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" asChild>
                <Link to="/profile">
                  <UserRound size={16} /> Profile
                </Link>
              </DropdownMenu.Item>
              <DropdownMenu.Separator className="menu-sep" />
              <DropdownMenu.Item className="menu-item danger" onSelect={logout}>
                <LogOut size={16} /> Logout
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
        {avatar.input}
      </div>
    </header>
  );
}
