import { formatCoins, formatCoinsExact } from '@spades/common';
import { ImageUp } from 'lucide-react';
import { useSession } from '../session/session';
import { useAvatarUpload } from '../components/Header';
import { StatsView, useStats } from '../components/StatsDialog';
import { Avatar, CoinIcon, Spinner } from '../components/ui';
import { RatingHistoryChart, RatingRows } from '../components/rating';
import { LobbyShell } from './LobbyPage';
import { GameHistory } from '../components/GameHistory';
import { OptionsButton } from '../table/OptionsPanel';
import '../table/options.css';
import { LinkedSignIns } from './LinkedSignIns';
import { PreferredPartners } from '../components/PreferredPartners';
import { AccountData } from '../components/AccountData';
import { TournamentHistory } from '../tournaments/TournamentHistory';

/** Clarification 7: /profile is the signed-in player's own profile (avatar change, stats, coins). */
export function ProfilePage() {
  const { user } = useSession();
  const avatar = useAvatarUpload();
  const stats = useStats(user?.id, 'ALL');
  if (!user) return null;
  return (
    <LobbyShell>
      <main className="page narrow-page">
        <section className="panel profile-head">
          <Avatar src={user.avatar} id={user.id} name={user.username} size={88} />
          <div className="grow">
            <h1 className="h2">{user.username}</h1>
            {user.email && <p className="muted">{user.email}</p>}
            <p className="coins big-coins">
              <CoinIcon size={22} /> <span className="num">{formatCoins(user.coins)}</span>
              <span className="muted small"> ({formatCoinsExact(user.coins)} coins)</span>
            </p>
          </div>
          <button type="button" className="btn btn-secondary" onClick={avatar.pick} disabled={avatar.uploading}>
            <ImageUp size={16} /> {avatar.uploading ? 'Uploading...' : 'Change Avatar'}
          </button>
          {avatar.input}
          <OptionsButton withText />
        </section>
        <section className="panel" aria-label="Rating">
          <h2 className="h3">Rating</h2>
          <RatingRows userId={user.id} />
          <RatingHistoryChart userId={user.id} />
        </section>
        <section className="panel">
          <h2 className="h3">Stats</h2>
          {/* issue #31: the stats count rated games; "My games" below lists every finished game */}
          <p className="muted small" data-testid="stats-scope">
            Stats count rated games (coin tables of four players). My games lists every finished game, rated or not.
          </p>
          {stats.data ? <StatsView stats={stats.data.stats} /> : <Spinner />}
        </section>
        <section className="panel" aria-labelledby="sign-in-methods">
          <h2 className="h3" id="sign-in-methods">
            Sign-in methods
          </h2>
          <LinkedSignIns />
        </section>
        <PreferredPartners />
        <section className="panel" aria-labelledby="my-games">
          <h2 className="h3" id="my-games">
            My games
          </h2>
          <GameHistory userId={user.id} />
        </section>
        <section className="panel" aria-labelledby="my-tournaments">
          <h2 className="h3" id="my-tournaments">
            Tournaments
          </h2>
          <TournamentHistory userId={user.id} />
        </section>
        <section className="panel" aria-labelledby="your-data">
          <h2 className="h3" id="your-data">
            Your data
          </h2>
          <AccountData />
        </section>
      </main>
    </LobbyShell>
  );
}
