// The updater's states against a fake generic feed: a stand-in for electron-updater's AppUpdater that reads
// `latest.yml`-like answers from the feed and emits the events electron-updater emits, in its order.
import { describe, expect, it, vi } from 'vitest';
import type { UpdateState } from '../shared/bridge';
import { memoryLogger } from './logger';
import { CHECK_INTERVAL_MS, createUpdater, type AutoUpdaterLike } from './updater';

type Feed = { version: string } | 'down';

class FakeAutoUpdater implements AutoUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  feedUrl?: string;
  installed = 0;
  checks = 0;
  private listeners = new Map<string, ((...a: never[]) => void)[]>();
  constructor(
    private readonly current: string,
    private readonly feeds: Map<string, Feed>,
  ) {}
  setFeedURL(o: { provider: 'generic'; url: string }) {
    this.feedUrl = o.url;
  }
  on(event: string, l: (...a: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
    return this;
  }
  private emit(event: string, arg?: unknown) {
    for (const l of this.listeners.get(event) ?? []) (l as (a: unknown) => void)(arg);
  }
  async checkForUpdates() {
    this.checks++;
    this.emit('checking-for-update');
    const feed = this.feeds.get(`${this.feedUrl}/latest.yml`);
    if (!feed || feed === 'down') {
      const e = new Error('net::ERR_CONNECTION_REFUSED');
      this.emit('error', e);
      throw e;
    }
    if (feed.version === this.current) {
      this.emit('update-not-available', { version: feed.version });
      return null;
    }
    this.emit('update-available', { version: feed.version });
    if (this.autoDownload) {
      for (const percent of [12.4, 67.9, 100]) this.emit('download-progress', { percent });
      this.emit('update-downloaded', { version: feed.version });
    }
    return { updateInfo: { version: feed.version } };
  }
  quitAndInstall() {
    this.installed++;
  }
}

function setup(opts: { feedUrl?: string; packaged?: boolean; enabled?: boolean; feed?: Feed } = {}) {
  const feedUrl = opts.feedUrl ?? 'https://downloads.example.org/spades';
  const feeds = new Map<string, Feed>([[`${feedUrl}/latest.yml`, opts.feed ?? { version: '1.1.0' }]]);
  const fake = new FakeAutoUpdater('1.0.0', feeds);
  let enabled = opts.enabled ?? true;
  const states: UpdateState[] = [];
  const timers: (() => void)[] = [];
  const updater = createUpdater({
    feedUrl,
    packaged: opts.packaged ?? true,
    loadAutoUpdater: vi.fn(async () => fake),
    enabled: () => enabled,
    saveEnabled: (e) => void (enabled = e),
    onChange: (s) => states.push(s),
    setInterval: (fn, ms) => {
      expect(ms).toBe(CHECK_INTERVAL_MS);
      timers.push(fn);
      return timers.length;
    },
    clearInterval: vi.fn(),
    log: memoryLogger(),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { updater, fake, feeds, states, timers, settle, isEnabled: () => enabled };
}

describe('updater', () => {
  it('checks the generic feed, downloads, and offers "restart" once the update is ready', async () => {
    const { updater, fake, states, settle } = setup();
    expect(updater.state()).toEqual({ status: 'idle', enabled: true });
    expect(updater.restart()).toBe(false);
    await updater.start();
    await settle();
    expect(fake.feedUrl).toBe('https://downloads.example.org/spades');
    expect(fake.autoDownload).toBe(true);
    expect(states.map((s) => s.status)).toEqual([
      'checking',
      'available',
      'downloading',
      'downloading',
      'downloading',
      'ready',
    ]);
    expect(states[2]).toMatchObject({ percent: 12, version: '1.1.0' });
    expect(updater.state()).toEqual({ status: 'ready', enabled: true, version: '1.1.0' });
    expect(updater.restart()).toBe(true);
    expect(fake.installed).toBe(1);
  });

  it('up to date: idle; an unreachable feed: error, and the next periodic check recovers', async () => {
    const { updater, feeds, states, timers, settle } = setup({ feed: { version: '1.0.0' } });
    await updater.start();
    await settle();
    expect(updater.state().status).toBe('idle');
    feeds.set('https://downloads.example.org/spades/latest.yml', 'down');
    timers[0]();
    await settle();
    expect(updater.state()).toMatchObject({ status: 'error', message: expect.stringContaining('try again later') });
    feeds.set('https://downloads.example.org/spades/latest.yml', { version: '1.2.0' });
    timers[0]();
    await settle();
    expect(updater.state()).toMatchObject({ status: 'ready', version: '1.2.0' });
    expect(states.some((s) => s.status === 'error')).toBe(true);
  });

  it('the setting turns it off (no checks), and back on (checks at once)', async () => {
    const { updater, fake, settle, isEnabled } = setup({ enabled: false });
    expect(updater.state()).toEqual({ status: 'disabled', enabled: false });
    await updater.start();
    expect(fake.checks).toBe(0);
    await expect(updater.setEnabled(true)).resolves.toMatchObject({ enabled: true });
    await settle();
    expect(isEnabled()).toBe(true);
    expect(fake.checks).toBe(1);
    expect(updater.state().status).toBe('ready');
    const off = await updater.setEnabled(false);
    expect(off).toMatchObject({ status: 'ready', enabled: false });
    expect(fake.autoInstallOnAppQuit).toBe(false);
    expect(isEnabled()).toBe(false);
  });

  it('no feed baked in, or not the installed app: unsupported, electron-updater never loaded', async () => {
    const a = setup({ feedUrl: '' });
    await a.updater.start();
    expect(a.updater.state()).toMatchObject({ status: 'unsupported', message: 'This build has no update feed.' });
    expect(a.fake.checks).toBe(0);
    const b = setup({ packaged: false });
    await b.updater.start();
    expect(b.updater.state()).toMatchObject({
      status: 'unsupported',
      message: expect.stringContaining('installed app'),
    });
    await expect(b.updater.setEnabled(false)).resolves.toMatchObject({ status: 'unsupported', enabled: false });
  });
});
