import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { runAdminCli } from './admin/admin.cli';

/** `npm run admin -- …` / `node backend/dist/admin.js …`: account roles (see admin/admin.cli.ts). */
Logger.overrideLogger(['error', 'warn']);
runAdminCli(process.argv.slice(2), process.env).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  },
);
