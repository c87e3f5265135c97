import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AUTO_MUTE_THRESHOLD_RANGE,
  REGISTRATION_MODES,
  REGISTRATION_MODE_LABELS,
  TABLE_PRESETS,
  TOURNAMENT_NO_SHOW_RANGE,
  checkSettingsPatch,
  tablePresetLabel,
  type AdminSettingsView,
  type AnnouncementLevel,
  type ServerSettings,
  type ServerSettingsPatch,
  type SettingsUpdateRequest,
} from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { refreshPublicSettings } from '../lib/server-settings';
import { when } from './format';
import { ReasonDialog } from './ReasonDialog';
import { InviteCodes } from './InviteCodes';

/** The form's state: texts as typed (numbers and lists parsed on save). */
interface Draft {
  serverName: string;
  serverDescription: string;
  serverIcon: string;
  registration: ServerSettings['registration'];
  startingCoins: string;
  discord: boolean;
  /** Issue #26: OpenID Connect / GitHub providers switched on or off by id (absent: offered). */
  sso?: Record<string, boolean>;
  tablePresets: ServerSettings['tablePresets'];
  announcement: string;
  announcementLevel: AnnouncementLevel;
  chatFilter: string;
  autoMuteThreshold: string;
  /** Issue #27: players may create sit-and-go tournaments; seconds to take a seat before a walkover. */
  sitAndGo: boolean;
  noShowSeconds: string;
}

function toDraft(s: ServerSettings): Draft {
  return {
    serverName: s.serverName ?? '',
    serverDescription: s.serverDescription ?? '',
    serverIcon: s.serverIcon ?? '',
    registration: s.registration,
    startingCoins: String(s.startingCoins),
    discord: s.signIns.discord,
    sso: { ...(s.signIns.sso ?? {}) },
    tablePresets: [...s.tablePresets],
    announcement: s.announcement?.text ?? '',
    announcementLevel: s.announcement?.level ?? 'info',
    chatFilter: s.chatFilter.join('\n'),
    autoMuteThreshold: String(s.autoMuteThreshold),
    sitAndGo: s.tournaments.playerSitAndGo,
    noShowSeconds: String(s.tournaments.noShowSeconds),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Only what differs from the stored settings (so the audit entry shows exactly what changed). */
export function settingsChanges(s: ServerSettings, d: Draft): ServerSettingsPatch {
  const out: ServerSettingsPatch = {};
  const text = (v: string) => (v.trim() ? v.trim() : null);
  if (text(d.serverName) !== s.serverName) out.serverName = text(d.serverName);
  if (text(d.serverDescription) !== s.serverDescription) out.serverDescription = text(d.serverDescription);
  if (text(d.serverIcon) !== s.serverIcon) out.serverIcon = text(d.serverIcon);
  if (d.registration !== s.registration) out.registration = d.registration;
  if (d.startingCoins.trim() !== String(s.startingCoins)) out.startingCoins = Number(d.startingCoins.trim());
  // issue #26: the OpenID Connect / GitHub providers travel with Discord (signIns is replaced as a whole)
  const sso = { ...(s.signIns.sso ?? {}), ...(d.sso ?? {}) };
  if (d.discord !== s.signIns.discord || !same(sso, s.signIns.sso ?? {}))
    out.signIns = Object.keys(sso).length ? { discord: d.discord, sso } : { discord: d.discord };
  const presets = TABLE_PRESETS.filter((p) => d.tablePresets.includes(p));
  if (!same(presets, s.tablePresets)) out.tablePresets = presets;
  const ann = d.announcement.trim();
  if (!ann && s.announcement) out.announcement = null;
  else if (ann && (ann !== s.announcement?.text || d.announcementLevel !== s.announcement.level))
    out.announcement = { text: ann, level: d.announcementLevel };
  const words = d.chatFilter
    .split('\n')
    .map((w) => w.trim())
    .filter(Boolean);
  if (!same(words, s.chatFilter)) out.chatFilter = words;
  if (d.autoMuteThreshold.trim() !== String(s.autoMuteThreshold))
    out.autoMuteThreshold = Number(d.autoMuteThreshold.trim());
  const tournaments = { playerSitAndGo: d.sitAndGo, noShowSeconds: Number(d.noShowSeconds.trim()) };
  if (!same(tournaments, s.tournaments)) out.tournaments = tournaments;
  return out;
}

/** Server settings (admins): stored, live on every node at once, each change audited with before and after. */
export function SettingsPage() {
  const qc = useQueryClient();
  const notify = useNotify();
  const q = useQuery({
    queryKey: ['admin', 'settings'],
    queryFn: () => api.get<AdminSettingsView>('/api/admin/settings'),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirm, setConfirm] = useState(false);
  const view = q.data;
  useEffect(() => {
    if (view) setDraft(toDraft(view.settings));
  }, [view]);
  const changes = useMemo(() => (view && draft ? settingsChanges(view.settings, draft) : {}), [view, draft]);
  const dirty = Object.keys(changes).length > 0;
  const check = dirty ? checkSettingsPatch(changes) : null;
  const problem = check && !check.ok ? check.message : '';

  if (q.error)
    return (
      <p className="form-error" role="alert">
        {errorText(q.error, 'Could not load the settings')}
      </p>
    );
  if (!view || !draft) return <p className="muted">Loading…</p>;
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft({ ...draft, [k]: v });

  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Settings</h1>
        <span className="muted small">
          {view.updatedAt
            ? `Changed ${when(view.updatedAt)}${view.updatedBy ? ` by ${view.updatedBy.username}` : ''}`
            : 'Defaults'}{' '}
          · version {view.version}
        </span>
      </div>
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !problem) setConfirm(true);
        }}
      >
        <section className="console-panel form" aria-labelledby="s-id">
          <h2 id="s-id" className="h3">
            Server
          </h2>
          <label className="field">
            <span>Name</span>
            <input
              value={draft.serverName}
              onChange={(e) => set('serverName', e.target.value)}
              placeholder="(from SERVER_NAME)"
            />
          </label>
          <label className="field">
            <span>Description</span>
            <textarea
              className="textarea"
              rows={2}
              value={draft.serverDescription}
              onChange={(e) => set('serverDescription', e.target.value)}
              placeholder="(from SERVER_DESCRIPTION)"
            />
          </label>
          <label className="field">
            <span>Icon URL (https)</span>
            <input
              value={draft.serverIcon}
              onChange={(e) => set('serverIcon', e.target.value)}
              placeholder="(from SERVER_ICON_URL)"
            />
          </label>
        </section>
        <section className="console-panel form" aria-labelledby="s-reg">
          <h2 id="s-reg" className="h3">
            Accounts
          </h2>
          <div className="field">
            <span id="s-reg-mode">Registration</span>
            <div
              className="segmented"
              role="radiogroup"
              aria-labelledby="s-reg-mode"
              style={{ alignSelf: 'flex-start' }}
            >
              {REGISTRATION_MODES.map((m) => (
                <button
                  key={m}
                  type="button"
                  role="radio"
                  aria-checked={draft.registration === m}
                  className={draft.registration === m ? 'active' : ''}
                  onClick={() => set('registration', m)}
                >
                  {REGISTRATION_MODE_LABELS[m]}
                </button>
              ))}
            </div>
          </div>
          <label className="field">
            <span>Starting coins (granted to a new account)</span>
            <input
              inputMode="numeric"
              value={draft.startingCoins}
              onChange={(e) => set('startingCoins', e.target.value.replace(/[^\d]/g, ''))}
            />
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.discord} onChange={(e) => set('discord', e.target.checked)} />
            Offer Discord sign-in
            {!view.signInsConfigured.discord && (
              <span className="hint">(not configured on this server: DISCORD_CLIENT_ID…)</span>
            )}
          </label>
          {Object.keys(view.signInsConfigured.sso ?? {}).map((id) => (
            <label key={id} className="check">
              <input
                type="checkbox"
                checked={draft.sso?.[id] !== false}
                onChange={(e) => set('sso', { ...(draft.sso ?? {}), [id]: e.target.checked })}
              />
              Offer {id} sign-in (OIDC_PROVIDERS / GITHUB_*)
            </label>
          ))}
        </section>
        <section className="console-panel form" aria-labelledby="s-presets">
          <h2 id="s-presets" className="h3">
            Tables offered in Create Game
          </h2>
          <div className="check-grid">
            {TABLE_PRESETS.map((p) => (
              <label key={p} className="check">
                <input
                  type="checkbox"
                  checked={draft.tablePresets.includes(p)}
                  onChange={(e) =>
                    set(
                      'tablePresets',
                      e.target.checked ? [...draft.tablePresets, p] : draft.tablePresets.filter((x) => x !== p),
                    )
                  }
                />
                {tablePresetLabel(p)}
              </label>
            ))}
          </div>
        </section>
        <section className="console-panel form" aria-labelledby="s-chat">
          <h2 id="s-chat" className="h3">
            Announcement and chat
          </h2>
          <label className="field">
            <span>Announcement banner (shown to every connected player; empty removes it)</span>
            <input value={draft.announcement} onChange={(e) => set('announcement', e.target.value)} />
          </label>
          <div
            className="segmented small"
            role="radiogroup"
            aria-label="Banner style"
            style={{ alignSelf: 'flex-start' }}
          >
            {(['info', 'warning'] as const).map((l) => (
              <button
                key={l}
                type="button"
                role="radio"
                aria-checked={draft.announcementLevel === l}
                className={draft.announcementLevel === l ? 'active' : ''}
                onClick={() => set('announcementLevel', l)}
              >
                {l === 'info' ? 'Info' : 'Warning'}
              </button>
            ))}
          </div>
          <label className="field">
            <span>Chat word filter (one word or phrase a line; a trailing * matches any ending)</span>
            <textarea
              className="textarea"
              rows={4}
              value={draft.chatFilter}
              onChange={(e) => set('chatFilter', e.target.value)}
            />
          </label>
          <label className="field">
            <span>
              Automatic lobby mute after mutes by this many players within 24 h ({AUTO_MUTE_THRESHOLD_RANGE.min}–
              {AUTO_MUTE_THRESHOLD_RANGE.max})
            </span>
            <input
              inputMode="numeric"
              value={draft.autoMuteThreshold}
              onChange={(e) => set('autoMuteThreshold', e.target.value.replace(/[^\d]/g, ''))}
            />
          </label>
        </section>
        <section className="console-panel form" aria-labelledby="s-tournaments">
          <h2 id="s-tournaments" className="h3">
            Tournaments
          </h2>
          <label className="check">
            <input type="checkbox" checked={draft.sitAndGo} onChange={(e) => set('sitAndGo', e.target.checked)} />
            Players may create sit-and-go tournaments
          </label>
          <label className="field">
            <span>
              Seconds to take a seat before a no-show forfeits the match ({TOURNAMENT_NO_SHOW_RANGE.min}–
              {TOURNAMENT_NO_SHOW_RANGE.max}; scheduled tournaments may set their own)
            </span>
            <input
              inputMode="numeric"
              value={draft.noShowSeconds}
              onChange={(e) => set('noShowSeconds', e.target.value.replace(/[^\d]/g, ''))}
            />
          </label>
        </section>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <div className="action-bar">
          <button type="submit" className="btn btn-primary" disabled={!dirty || !!problem}>
            Save changes
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={!dirty}
            onClick={() => setDraft(toDraft(view.settings))}
          >
            Discard
          </button>
          {dirty && <span className="muted small">Changed: {Object.keys(changes).join(', ')}</span>}
        </div>
      </form>
      <InviteCodes />
      <ReasonDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Save the settings"
        description={`They apply on every node at once. Changed: ${Object.keys(changes).join(', ')}.`}
        confirmLabel="Save"
        onSubmit={async (reason) => {
          const body: SettingsUpdateRequest = { changes, reason };
          const next = await api.put<AdminSettingsView>('/api/admin/settings', body);
          qc.setQueryData(['admin', 'settings'], next);
          void refreshPublicSettings();
          notify('Settings saved', 'info');
        }}
      />
    </div>
  );
}
