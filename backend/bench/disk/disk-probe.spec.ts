import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../load/stats';
import { DISK_DEFAULTS, parseDiskArgs, probeDisk, summarizeSyncs } from './disk-probe';

describe('bench:disk', () => {
  it('parses its options and refuses unknown or bad ones', () => {
    expect(parseDiskArgs([])).toEqual(DISK_DEFAULTS);
    expect(parseDiskArgs(['--dir', '/var/x', '--rate', '0', '--seconds', '5', '--bytes', '4096'])).toEqual({
      dir: '/var/x',
      rate: 0,
      seconds: 5,
      bytes: 4096,
    });
    expect(() => parseDiskArgs(['--rate', '-1'])).toThrow(UsageError);
    expect(() => parseDiskArgs(['--seconds', '0'])).toThrow(UsageError);
    expect(() => parseDiskArgs(['--dir'])).toThrow(UsageError);
    expect(() => parseDiskArgs(['--fast'])).toThrow(UsageError);
    expect(() => parseDiskArgs(['--bytes', '1.5'])).toThrow(UsageError);
    // the same syntax as bench:load's options
    expect(parseDiskArgs(['--rate=0', '--dir=/d'])).toMatchObject({ rate: 0, dir: '/d' });
  });

  it('summarizes flush times: percentiles, the worst one and the stalls over 50 and 100 ms', () => {
    // 1,000 flushes: 994 of 1 ms, 4 of 60 ms, 2 of 300 ms
    const ms = [...Array(994).fill(1), 60, 60, 60, 60, 300, 300];
    const r = summarizeSyncs({ ...DISK_DEFAULTS, dir: '/d' }, ms, 30);
    expect(r).toEqual({
      dir: '/d',
      seconds: 30,
      rate: 100,
      bytes: 8192,
      syncs: 1000,
      syncP50Ms: 1,
      syncP99Ms: 1,
      syncP999Ms: 300,
      syncMaxMs: 300,
      stallsOver50Ms: 6,
      stallsOver100Ms: 2,
      stallsOver100MsPerMinute: 4,
    });
    expect(summarizeSyncs(DISK_DEFAULTS, [], 0)).toMatchObject({
      syncs: 0,
      syncP50Ms: null,
      syncMaxMs: null,
      stallsOver100MsPerMinute: 0,
    });
  });

  it('summarizes a back-to-back probe of hundreds of thousands of flushes (no spread of every sample)', () => {
    const ms = new Float64Array(300_000).fill(0.1);
    ms[123_456] = 412.3;
    expect(summarizeSyncs({ ...DISK_DEFAULTS, rate: 0 }, ms, 30)).toMatchObject({
      syncs: 300_000,
      syncMaxMs: 412.3,
      stallsOver100Ms: 1,
      stallsOver100MsPerMinute: 2,
    });
  });

  it('flushes a real file at the asked rate and leaves nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'disk-probe-spec-'));
    try {
      const { syncMs, elapsedSeconds } = await probeDisk({ dir, rate: 50, seconds: 0.5, bytes: 4096 });
      // 50/s for 0.5 s: about 25 flushes (the first at once), never more than the schedule allows
      expect(syncMs.length).toBeGreaterThanOrEqual(5);
      expect(syncMs.length).toBeLessThanOrEqual(27);
      expect(elapsedSeconds).toBeGreaterThanOrEqual(0.5);
      expect(Array.from(syncMs).every((x) => x >= 0)).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
