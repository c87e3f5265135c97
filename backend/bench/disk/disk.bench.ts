/**
 * `npm run bench:disk -- [--dir D] [--rate R] [--seconds S] [--bytes B]`
 *
 * Measures the flush latency of the disk under D (default: the OS temporary directory; point it at the filesystem
 * that holds the database, e.g. PostgreSQL's data directory or the server's DATA_DIR): `fdatasync` after a small
 * overwrite, R times a second for S seconds. The last stdout line is JSON (see DiskProbeResult). Run it with nothing
 * else busy: it is the floor under any ack that waits for a commit on that disk (issue #10).
 */
import { parseDiskArgs, probeDisk, summarizeSyncs } from './disk-probe';
import { UsageError } from '../load/stats';

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseDiskArgs(process.argv.slice(2).filter((a) => a !== '--'));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`bench:disk: ${e.message}`);
      process.exitCode = 2;
      return;
    }
    throw e;
  }
  process.stderr.write(
    `[bench:disk] fdatasync after ${opts.bytes} bytes, ${opts.rate || 'back-to-back'}/s for ${opts.seconds} s under ${opts.dir}\n`,
  );
  const { syncMs, elapsedSeconds } = await probeDisk(opts);
  process.stdout.write(`${JSON.stringify(summarizeSyncs(opts, syncMs, elapsedSeconds))}\n`);
}

main().catch((e: unknown) => {
  console.error(`bench:disk failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
