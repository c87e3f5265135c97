/**
 * Node flags of the server process (issue #10: RSS ≤ 600 MB for 2,000 live tables on a 2-core machine). V8 sizes
 * its heap when node starts, so these are command-line flags and every launcher passes them: `npm start`
 * (scripts/start.mjs), `npm start -w backend` (its package.json script), the container entrypoint
 * (build/docker-entrypoint.sh runs `node backend/dist/config/node-flags.js` to print them) and `bench:load`.
 *
 * - `--max-old-space-size=1024`: V8 lets the old generation grow to a multiple of the live data before the next
 *   full collection, and that multiple depends on the heap limit: up to 4× with the default limit (~4 GB on a
 *   24 GB machine), at most 1.6× with 1 GB. Under bench:load (2,000 tables on PGlite) the old space went from
 *   ~340 MB to ~200 MB for ~100–120 MB of live data, with the same CPU. The live heap there is far below the cap
 *   (~105 MB for 2,000 tables + 2,000 sockets, ~150 MB for 4,000 sockets).
 * - `--max-semi-space-size=8`: a young generation of 16 MB instead of 32 MB.
 *
 * A flag that NODE_OPTIONS already sets is left out (a flag on the command line would override NODE_OPTIONS), so an
 * operator can give the server another limit with e.g. `NODE_OPTIONS=--max-old-space-size=2048`.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-old-space-size=1024', '--max-semi-space-size=8'];

const flagName = (flag: string) => flag.split('=')[0].replace(/_/g, '-');

/** The flags to put before the server's script: SERVER_NODE_FLAGS minus those NODE_OPTIONS sets. */
export function serverNodeFlags(nodeOptions: string | undefined = process.env.NODE_OPTIONS): string[] {
  const given = new Set((nodeOptions ?? '').split(/\s+/).filter(Boolean).map(flagName));
  return SERVER_NODE_FLAGS.filter((f) => !given.has(flagName(f)));
}

// `node backend/dist/config/node-flags.js` prints them (for shell launchers: the container entrypoint)
if (require.main === module) process.stdout.write(`${serverNodeFlags().join(' ')}\n`);
