// A tiny JSON file store in userData (settings, window bounds). fs is injected for tests; writes are atomic
// (temp file + rename) so a crash mid-write never leaves a truncated file.
import { dirname } from 'node:path';
import type { Logger } from './logger';

export interface StoreFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string, encoding: 'utf8'): void;
  renameSync(from: string, to: string): void;
  mkdirSync(path: string, options: { recursive: true }): unknown;
}

export interface JsonStore<T> {
  /** The stored value validated by `parse`, or undefined when missing, unreadable or invalid. */
  read(): T | undefined;
  write(value: T): boolean;
}

export function createJsonStore<T>(
  fs: StoreFs,
  file: string,
  parse: (raw: unknown) => T | undefined,
  log: Logger,
): JsonStore<T> {
  return {
    read() {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        return undefined; // first run
      }
      try {
        const value = parse(JSON.parse(text) as unknown);
        if (value === undefined) log.warn(`ignoring invalid ${file}`);
        return value;
      } catch {
        log.warn(`ignoring unreadable ${file}`);
        return undefined;
      }
    },
    write(value) {
      try {
        fs.mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.tmp`;
        fs.writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
        fs.renameSync(tmp, file);
        return true;
      } catch (e) {
        log.error(`could not write ${file}: ${(e as Error).message}`);
        return false;
      }
    },
  };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
