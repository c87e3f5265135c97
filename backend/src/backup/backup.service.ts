import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { BackupManifest, BackupWriter } from './backup.format';
import { dumpDatabase } from './backup.dump';

/**
 * Backups taken by the running server (issue #26): GET /api/admin/backup streams one to an admin, and
 * `npm run backup` asks for one when the embedded database is held by this server. One read-only snapshot
 * transaction on one pooled connection. On the embedded database (one session) the server's other queries wait
 * while the dump runs — seconds for a community's database.
 */
@Injectable()
export class BackupService {
  private readonly log = new Logger('Backup');

  constructor(
    private readonly ds: DataSource,
    private readonly audit: AuditService,
  ) {}

  async writeTo(out: NodeJS.WritableStream, actorId: string | null): Promise<BackupManifest> {
    const qr = this.ds.createQueryRunner();
    await qr.connect();
    let manifest: BackupManifest;
    try {
      manifest = await dumpDatabase(qr, new BackupWriter(out));
    } finally {
      await qr.release();
    }
    const { counts, schemaVersion } = manifest;
    this.log.log(
      `backup taken by ${actorId ? `admin ${actorId}` : 'npm run backup'}: schema ${schemaVersion}, ` +
        `${counts.accounts} accounts, ${counts.games} games, ${counts.ledgerEntries} ledger entries`,
    );
    await this.audit.record(null, {
      actorId,
      action: 'server.backup',
      targetRef: `schema:${schemaVersion}`,
      after: { counts, sha256: manifest.sha256 },
    });
    return manifest;
  }
}
