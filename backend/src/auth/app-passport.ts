import { ExecutionContext, Inject, Injectable, mixin, Type } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import passport from 'passport';

/**
 * This application's own passport instance. @nestjs/passport registers strategies in the process-wide `passport`
 * singleton, where the strategies of two apps in one process (tests run several servers) would replace each
 * other's, each with its own secret and database. Strategies here register in the app's instance instead
 * (`PassportStrategy` + `getPassportInstance()`, see `withAppPassport`) and guards authenticate through it.
 */
export const APP_PASSPORT = Symbol('APP_PASSPORT');
export type Authenticator = passport.Authenticator;
export const appPassportProvider = { provide: APP_PASSPORT, useFactory: (): Authenticator => new passport.Passport() };

/** Options every strategy of this app receives: the passport instance to register in. */
export interface AppPassportOption {
  passport: Authenticator;
}

/** A strategy's options plus the app's passport instance (read by `withAppPassport`). */
export function withPassportOption<T extends object>(passport: Authenticator, options: T): T {
  return Object.assign(options, { passport });
}

/**
 * Makes a passport Strategy class remember the app's passport instance: its first constructor argument (the
 * options) carries `passport` (see withPassportOption). The final strategy class returns it from
 * `getPassportInstance()`, which @nestjs/passport's PassportStrategy calls in its constructor to register the
 * strategy (it must be defined there: the PassportStrategy mixin's own version would shadow one defined here).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withAppPassport<T extends new (...args: any[]) => passport.Strategy>(Base: T) {
  return class extends Base {
    readonly appPassport: Authenticator;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      this.appPassport = (args[0] as AppPassportOption).passport;
    }
  };
}

/** Runs strategy `name` of `authenticator` on a request; resolves with what `done` makes of the outcome. */
export function runStrategy<T>(
  authenticator: Authenticator,
  name: string,
  options: object,
  req: unknown,
  res: unknown,
  done: (err: unknown, user: unknown, info: unknown, status: unknown) => T,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const handler = authenticator.authenticate(
      name,
      options,
      (err: unknown, user: unknown, info: unknown, status: unknown) => {
        try {
          resolve(done(err, user, info, status));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
    ) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
    handler(req, res, (err?: unknown) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(undefined),
    );
  });
}

const guards = new Map<string, Type<IAuthGuard>>();

/**
 * `AuthGuard(name)` of @nestjs/passport (same `handleRequest` / `getAuthenticateOptions` hooks, `request.user`),
 * authenticating through the app's passport instance: AuthGuard's own canActivate uses the global singleton.
 * A strategy that redirects (OAuth start) ends the response itself and the guard never resolves, as with AuthGuard.
 */
export function AppAuthGuard(name: string): Type<IAuthGuard> {
  const existing = guards.get(name);
  if (existing) return existing;
  @Injectable()
  class AppAuthGuardMixin extends AuthGuard(name) {
    @Inject(APP_PASSPORT) private readonly authenticator!: Authenticator;

    override async canActivate(ctx: ExecutionContext): Promise<boolean> {
      const options = { session: false, property: 'user', ...((await this.getAuthenticateOptions(ctx)) ?? {}) };
      const req = this.getRequest(ctx) as Record<string, unknown>;
      const user = await runStrategy(
        this.authenticator,
        name,
        options,
        req,
        ctx.switchToHttp().getResponse(),
        (err, u, info, status) => this.handleRequest(err, u, info, ctx, status),
      );
      req[options.property] = user;
      return true;
    }
  }
  const guard = mixin(AppAuthGuardMixin);
  guards.set(name, guard);
  return guard;
}
