import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';

/**
 * Runs work AFTER the transaction of `m` commits (never when it rolls back): a sanction applied inside a caller's
 * transaction (a report resolved with an action) must not close sockets or clear caches before it is visible.
 * Without an active transaction the work runs at once. One TypeORM subscriber per DataSource watches commits.
 */
const pending = new WeakMap<QueryRunner, (() => void)[]>();
const installed = new WeakSet<DataSource>();

export function afterCommit(ds: DataSource, m: EntityManager | null | undefined, work: () => void): void {
  const qr = m?.queryRunner;
  if (!qr || !qr.isTransactionActive) return work();
  install(ds);
  const list = pending.get(qr) ?? [];
  list.push(work);
  pending.set(qr, list);
}

function install(ds: DataSource): void {
  if (installed.has(ds)) return;
  installed.add(ds);
  const sub: EntitySubscriberInterface = {
    afterTransactionCommit: (e) => {
      const qr = e.queryRunner;
      if (qr.isTransactionActive) return; // a savepoint: wait for the outer commit
      const list = pending.get(qr);
      pending.delete(qr);
      for (const w of list ?? []) w();
    },
    afterTransactionRollback: (e) => {
      if (!e.queryRunner.isTransactionActive) pending.delete(e.queryRunner);
    },
  };
  (ds.subscribers as EntitySubscriberInterface[]).push(sub);
}
