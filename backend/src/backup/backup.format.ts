/**
 * The backup file (issue #26): gzip of UTF-8 lines, readable with `zcat`.
 *   line 1            {"format":"spades-backup","version":1}
 *   per table         #table <name> <columns as a JSON array>
 *   per row           the row as PostgreSQL's row_to_json text (never parsed by JavaScript: bigint coins and
 *                     exact timestamps go back through json_populate_recordset unchanged)
 *   last line         {"manifest":{…}} — schema version, time, counts, and the SHA-256 of every line before it
 * The manifest comes last so a backup streams in one pass; a restore reads the file twice (check, then load), so a
 * corrupted, truncated or newer-schema file is refused before the database is touched.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';

export const BACKUP_FORMAT = 'spades-backup';
export const BACKUP_VERSION = 1;
export const TABLE_LINE = '#table ';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The last migration applied to the database that was backed up (e.g. "AuditLog1765000000000"). */
  schemaVersion: string;
  /** Its timestamp (the number in the migration's name): what restore compares. */
  schemaTimestamp: number;
  createdAt: string;
  /** Rows per table. */
  tables: Record<string, number>;
  counts: { accounts: number; games: number; ledgerEntries: number };
  /** hex SHA-256 of every line before the manifest (each with its "\n"). */
  sha256: string;
}

export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

/** Writes lines to a gzip file, hashing them; `finish` appends the manifest. */
export class BackupWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly hash: Hash = createHash('sha256');
  private readonly done: Promise<void>;

  constructor(out: NodeJS.WritableStream | string) {
    const sink = typeof out === 'string' ? createWriteStream(out, { mode: 0o600 }) : out;
    this.done = pipeline(this.gzip, sink);
    this.done.catch(() => undefined);
  }

  async line(text: string): Promise<void> {
    const l = text + '\n';
    this.hash.update(l);
    if (!this.gzip.write(l)) await once(this.gzip, 'drain');
  }

  async finish(manifest: Omit<BackupManifest, 'sha256'>): Promise<BackupManifest> {
    const full: BackupManifest = { ...manifest, sha256: this.hash.digest('hex') };
    this.gzip.end(JSON.stringify({ manifest: full }) + '\n');
    await this.done;
    return full;
  }
}

/** One table's rows as read from a file. */
export interface TableChunk {
  table: string;
  columns: string[];
  rows: string[];
}

/**
 * Reads and checks a backup: the header, the line structure and the manifest's checksum and counts. With
 * `onRows`, hands over each table's rows in chunks of `chunkRows` (only call that after a checking pass: rows are
 * handed over before the checksum at the end is known).
 */
export async function readBackup(
  file: string,
  onRows?: (chunk: TableChunk) => Promise<void>,
  chunkRows = 500,
): Promise<BackupManifest> {
  const hash = createHash('sha256');
  const input = createReadStream(file).pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let manifest: BackupManifest | null = null;
  let current: TableChunk | null = null;
  const seen: Record<string, number> = {};
  const flush = async () => {
    if (current && current.rows.length && onRows) await onRows(current);
    if (current) current = { ...current, rows: [] };
  };
  try {
    for await (const line of lines) {
      n += 1;
      if (manifest) throw new BackupFileError('the backup file has data after its manifest');
      if (n === 1) {
        let head: { format?: unknown; version?: unknown };
        try {
          head = JSON.parse(line);
        } catch {
          throw new BackupFileError('not a Spades backup file (no header)');
        }
        if (head.format !== BACKUP_FORMAT) throw new BackupFileError('not a Spades backup file');
        if (head.version !== BACKUP_VERSION)
          throw new BackupFileError(
            `backup format version ${String(head.version)} is not supported (this server reads ${BACKUP_VERSION})`,
          );
        hash.update(line + '\n');
        continue;
      }
      if (line.startsWith('{"manifest"')) {
        await flush();
        manifest = (JSON.parse(line) as { manifest: BackupManifest }).manifest;
        continue;
      }
      hash.update(line + '\n');
      if (line.startsWith(TABLE_LINE)) {
        await flush();
        const rest = line.slice(TABLE_LINE.length);
        const space = rest.indexOf(' ');
        const table = rest.slice(0, space);
        if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new BackupFileError(`bad table name at line ${n}`);
        const columns = JSON.parse(rest.slice(space + 1)) as string[];
        current = { table, columns, rows: [] };
        seen[table] = 0;
        continue;
      }
      if (!current || !line.startsWith('{')) throw new BackupFileError(`unexpected content at line ${n}`);
      current.rows.push(line);
      seen[current.table] += 1;
      if (current.rows.length >= chunkRows) await flush();
    }
  } catch (e) {
    if (e instanceof BackupFileError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new BackupFileError(`the backup file is damaged or not a backup (${msg})`);
  }
  if (!manifest) throw new BackupFileError('the backup file is incomplete (no manifest: was it cut short?)');
  if (hash.digest('hex') !== manifest.sha256)
    throw new BackupFileError('the backup file is damaged: its checksum does not match its manifest');
  for (const [t, count] of Object.entries(manifest.tables))
    if ((seen[t] ?? 0) !== count)
      throw new BackupFileError(
        `the backup file is damaged: table ${t} has ${seen[t] ?? 0} rows, the manifest says ${count}`,
      );
  return manifest;
}
