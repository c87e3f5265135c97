import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { runBackupCli } from './backup/backup.cli';

/** `npm run backup -- …` / `npm run restore -- …` (node backend/dist/backup.js backup|restore …): see backup/backup.cli.ts. */
Logger.overrideLogger(['error', 'warn']);
runBackupCli(process.argv.slice(2), process.env).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  },
);
