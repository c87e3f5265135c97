/**
 * A real server in a child process (forked by the crash/restart tests): boots the same app as main.ts with
 * the environment overrides in CHILD_ENV (JSON) and reports its port over IPC. Run with
 * `-r @swc-node/register` from backend/ (decorator metadata), @spades/common mapped to its sources.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import * as path from 'node:path';

const Module = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = Module._resolveFilename;
const commonSrc = path.resolve(__dirname, '../../../../common/src/index.ts');
Module._resolveFilename = function (request: string, ...rest: unknown[]) {
  return resolve.call(this, request === '@spades/common' ? commonSrc : request, ...rest);
};

async function main(): Promise<void> {
  const { createApp } = require('../../../src/bootstrap') as typeof import('../../../src/bootstrap');
  const env = JSON.parse(process.env.CHILD_ENV ?? '{}') as Record<string, string | undefined>;
  const app = await createApp(env);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  process.send?.({ ready: port });
  process.on('message', async (m: { stop?: boolean }) => {
    if (m?.stop) {
      await app.close();
      process.exit(0);
    }
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
