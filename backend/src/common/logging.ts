import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/config.schema';

const SECRET_QUERY = /([?&](?:token|access_token|code|state|code_verifier|password|client_secret)=)[^&#]*/gi;

/** Replaces secret query parameter values (tokens, OAuth codes) with [REDACTED]. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_QUERY, '$1[REDACTED]');
}

/**
 * Structured JSON logs (pino). Request logs carry method, redacted url, status and timing only: no headers
 * (authorization, cookies), no bodies (passwords, avatars); redaction paths catch anything else.
 */
export function pinoParams(config: AppConfig, stream?: NodeJS.WritableStream): Params {
  const options: NonNullable<Exclude<Params['pinoHttp'], unknown[]>> = {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'req.body.password',
        'password',
        'token',
        '*.password',
        '*.token',
        '*.passwordHash',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  };
  // Every route, in NestJS 11 path syntax: nestjs-pino's default ('*', which becomes '/api/*' under the global
  // prefix) makes Nest log two LegacyRouteConverter warnings on every start.
  return {
    pinoHttp: stream ? [options, stream as never] : options,
    exclude: [],
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
  };
}
