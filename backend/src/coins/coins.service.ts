import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** A ledger account: the house (issuer of all coins), a user's wallet, or an escrow keyed by e.g. a game id. */
export type AccountRef = 'house' | { userId: string } | { escrow: string };

export class InsufficientFundsError extends Error {
  constructor(
    readonly account: string,
    readonly balance: bigint,
    readonly amount: bigint,
  ) {
    super(`Insufficient coins: ${account} holds ${balance}, ${amount} needed`);
    this.name = 'InsufficientFundsError';
  }
}

export function accountKey(ref: AccountRef): string {
  if (ref === 'house') return 'house';
  if ('userId' in ref) return `user:${ref.userId}`;
  if (!ref.escrow || ref.escrow.length > 100) throw new Error('escrow id must be 1–100 characters');
  return `escrow:${ref.escrow}`;
}

export interface TransferResult {
  transferId: string;
  /** Balances after the transfer. */
  fromBalance: bigint;
  toBalance: bigint;
}

/**
 * Double-entry coins ledger. Every movement is one transfer = two entries (−amount, +amount) sharing a
 * transfer id, and the two account balances change in the same statement batch. Balances are bigint and
 * CHECK (balance >= 0) for every account except the house, which issues coins and therefore holds minus the
 * coins in circulation: the sum of all balances is always 0.
 *
 * Use `transfer(manager, …)` INSIDE your own transaction (pass the transaction's EntityManager): the rows are
 * locked FOR UPDATE in a fixed order, so concurrent transfers cannot lose updates or deadlock each other.
 */
@Injectable()
export class CoinsService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Moves `amount` (> 0, integer) coins. Throws InsufficientFundsError (before writing anything) when a
   * non-house `from` account would go below zero. Accounts are created on first use.
   * `reason`: short code such as 'registration_grant', 'buy_in', 'payout', 'rake', 'refund'.
   */
  async transfer(
    manager: EntityManager,
    from: AccountRef,
    to: AccountRef,
    amount: bigint | number,
    reason: string,
    refId: string | null = null,
  ): Promise<TransferResult> {
    const amt = BigInt(amount);
    if (amt <= 0n) throw new RangeError('transfer amount must be a positive integer');
    if (typeof amount === 'number' && !Number.isSafeInteger(amount))
      throw new RangeError('transfer amount must be a safe integer');
    if (!reason || reason.length > 40) throw new RangeError('reason must be 1–40 characters');
    const fromKey = accountKey(from);
    const toKey = accountKey(to);
    if (fromKey === toKey) throw new RangeError('cannot transfer to the same account');
    if (!manager.queryRunner?.isTransactionActive) {
      return manager.transaction((m) => this.transfer(m, from, to, amt, reason, refId));
    }
    await this.ensureAccount(manager, from);
    await this.ensureAccount(manager, to);
    const rows: { id: string; key: string; kind: string; balance: string }[] = await manager.query(
      `SELECT id, key, kind, balance FROM coin_accounts WHERE key = ANY($1) ORDER BY key FOR UPDATE`,
      [[fromKey, toKey]],
    );
    const src = rows.find((r) => r.key === fromKey)!;
    const dst = rows.find((r) => r.key === toKey)!;
    const srcBalance = BigInt(src.balance);
    if (src.kind !== 'house' && srcBalance < amt) throw new InsufficientFundsError(fromKey, srcBalance, amt);
    const transferId = randomUUID();
    await manager.query(
      `UPDATE coin_accounts SET balance = balance + CASE WHEN id = $1 THEN -$3::bigint ELSE $3::bigint END
       WHERE id IN ($1, $2)`,
      [src.id, dst.id, amt.toString()],
    );
    await manager.query(
      `INSERT INTO coin_entries (transfer_id, account_id, amount, reason, ref_id)
       VALUES ($1, $2, -$4::bigint, $5, $6), ($1, $3, $4::bigint, $5, $6)`,
      [transferId, src.id, dst.id, amt.toString(), reason, refId],
    );
    return { transferId, fromBalance: srcBalance - amt, toBalance: BigInt(dst.balance) + amt };
  }

  /** Balance of an account (0 if it does not exist yet). Pass a transaction's manager to read inside it. */
  async balanceOf(ref: AccountRef, manager: EntityManager = this.dataSource.manager): Promise<bigint> {
    const rows: { balance: string }[] = await manager.query(`SELECT balance FROM coin_accounts WHERE key = $1`, [
      accountKey(ref),
    ]);
    return rows.length ? BigInt(rows[0].balance) : 0n;
  }

  /** Balances of many users at once (missing = 0). */
  async userBalances(
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>(userIds.map((id) => [id, 0n]));
    if (!userIds.length) return out;
    const rows: { user_id: string; balance: string }[] = await manager.query(
      `SELECT user_id, balance FROM coin_accounts WHERE user_id = ANY($1::uuid[])`,
      [userIds],
    );
    for (const r of rows) out.set(r.user_id, BigInt(r.balance));
    return out;
  }

  /** Sum of every balance; always 0 (the house holds minus the coins in circulation). */
  async totalSupplyCheck(manager: EntityManager = this.dataSource.manager): Promise<bigint> {
    const [r] = await manager.query(`SELECT COALESCE(SUM(balance), 0)::text AS s FROM coin_accounts`);
    return BigInt(r.s);
  }

  private async ensureAccount(manager: EntityManager, ref: AccountRef): Promise<void> {
    if (ref === 'house') return; // created by the migration
    if ('userId' in ref) {
      await manager.query(
        `INSERT INTO coin_accounts (key, kind, user_id) VALUES ($1, 'user', $2) ON CONFLICT (key) DO NOTHING`,
        [accountKey(ref), ref.userId],
      );
    } else {
      await manager.query(`INSERT INTO coin_accounts (key, kind) VALUES ($1, 'escrow') ON CONFLICT (key) DO NOTHING`, [
        accountKey(ref),
      ]);
    }
  }
}
