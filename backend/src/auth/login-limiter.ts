import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config.schema';

const WINDOW_MS = 60 * 60 * 1000;

const ipKey = (ip: string) => `ip:${ip}`;
/** One account from one address (JSON: neither part can forge the other's boundary). */
const pairKey = (ip: string, account: string) => `acct:${JSON.stringify([account.toLowerCase(), ip])}`;

/**
 * In-memory sliding-window counter of FAILED logins, per client IP and per (account, IP) pair (account = the
 * normalised e-mail, whether or not it exists, so limits do not reveal accounts). Limits (per hour):
 * LOGIN_MAX_FAILURES_PER_ACCOUNT (default 20, at most 100) for one account from one address, and
 * LOGIN_MAX_FAILURES_PER_IP (default 100) for one address over all accounts. The account limit is counted per
 * address (issue #24) so that failures from elsewhere never lock the owner out; there is no global per-account cap
 * (it would give that lock-out back to anyone with enough addresses): a distributed guesser is held by the per-IP
 * limit and the password hash's cost. A successful login clears that pair's counter. State is per process (lost on
 * restart; with several instances each counts on its own).
 */
@Injectable()
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly config: AppConfig) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Seconds until another attempt is allowed, or 0 if allowed now. */
  retryAfter(ip: string, account: string, now = Date.now()): number {
    const checks: [string, number][] = [
      [ipKey(ip), this.config.loginMaxFailuresPerIp],
      [pairKey(ip, account), this.config.loginMaxFailuresPerAccount],
    ];
    let wait = 0;
    for (const [key, max] of checks) {
      const list = this.recent(key, now);
      if (list.length >= max) wait = Math.max(wait, Math.ceil((list[list.length - max] + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  recordFailure(ip: string, account: string, now = Date.now()): void {
    for (const key of [ipKey(ip), pairKey(ip, account)]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
    if (this.failures.size > 100_000) this.sweep(now);
  }

  recordSuccess(ip: string, account: string): void {
    this.failures.delete(pairKey(ip, account));
  }

  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }
}

/**
 * In-memory per-IP limit on account creation (REGISTER_MAX_PER_IP per hour, default 100): every new account
 * receives 5,000,000 coins, so mass registration would farm coins. Per process, like LoginLimiter.
 */
@Injectable()
export class RegistrationLimiter {
  private readonly created = new Map<string, number[]>();

  constructor(private readonly config: AppConfig) {}

  /** Seconds until this IP may register again, or 0. */
  retryAfter(ip: string, now = Date.now()): number {
    const list = (this.created.get(ip) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length) this.created.set(ip, list);
    else this.created.delete(ip);
    const max = this.config.registerMaxPerIp;
    return list.length >= max ? Math.ceil((list[list.length - max] + WINDOW_MS - now) / 1000) : 0;
  }

  record(ip: string, now = Date.now()): void {
    const list = (this.created.get(ip) ?? []).filter((t) => now - t < WINDOW_MS);
    list.push(now);
    this.created.set(ip, list);
    if (this.created.size > 100_000) for (const k of [...this.created.keys()]) this.retryAfter(k, now);
  }
}
