/**
 * The server's Node flags (issue #10: memory): what the launchers pass, that NODE_OPTIONS can override them, and
 * that node accepts them and sizes its heap by them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS, serverNodeFlags } from './node-flags';

describe('server node flags', () => {
  it('are all passed without NODE_OPTIONS; a flag NODE_OPTIONS sets (either spelling) is left out', () => {
    expect(serverNodeFlags(undefined)).toEqual([...SERVER_NODE_FLAGS]);
    expect(serverNodeFlags('')).toEqual([...SERVER_NODE_FLAGS]);
    expect(serverNodeFlags('--enable-source-maps --max-old-space-size=4096')).toEqual(['--max-semi-space-size=8']);
    expect(serverNodeFlags('--max_semi_space_size=32')).toEqual(['--max-old-space-size=1024']);
    // a longer flag name that starts the same is another flag
    expect(serverNodeFlags('--max-old-space-size-percentage=50')).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('are accepted by node and set the heap limit (~1 GB of old space + the young generation)', () => {
    const r = spawnSync(
      process.execPath,
      // plain text on stdout: `-p` would colour the number when FORCE_COLOR is set (as under Nx in CI)
      [
        ...serverNodeFlags(undefined),
        '-e',
        "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))",
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(r.stderr).toBe('');
    const mb = Number(r.stdout.trim()) / 1048576;
    expect(mb).toBeGreaterThanOrEqual(1024);
    expect(mb).toBeLessThan(1100); // the default on this machine is ~4 GB
  });

  it('are the flags of `npm start -w backend` (package.json cannot import them)', () => {
    const start = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).scripts.start as string;
    expect(start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`);
  });
});
