import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { reportUnexpected } from './error-ref';

interface Response {
  headersSent: boolean;
  status(code: number): { json(body: unknown): void };
}

/** Flattens Nest/validation error payloads into one readable sentence. */
export function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  if (response && typeof response === 'object' && 'message' in response) {
    const m = (response as { message: unknown }).message;
    if (Array.isArray(m)) return m.map(String).join('; ');
    if (typeof m === 'string') return m;
  }
  return fallback;
}

/**
 * Every HTTP error leaves as `{ message }` with its status. Errors raised by Express middleware (body parser:
 * malformed JSON, payload too large) keep their 4xx status; anything unexpected is a 500 with a generic message
 * and a correlation id that its log line carries too (no internals leak).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<{ method?: string; url?: string } | undefined>();
    if (res.headersSent) return;
    let status = HttpStatus.INTERNAL_SERVER_ERROR;
    let message = 'Internal server error';
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOf(exception.getResponse(), exception.message);
    } else if (isClientHttpError(exception)) {
      status = exception.status;
      message =
        exception.type === 'entity.parse.failed'
          ? 'Malformed JSON body'
          : exception.type === 'entity.too.large'
            ? 'Request body is too large'
            : exception.message;
    } else {
      message = reportUnexpected(this.logger, `${req?.method ?? 'HTTP'} ${req?.url ?? ''}`.trim(), exception);
    }
    res.status(status).json({ message });
  }
}

function isClientHttpError(e: unknown): e is { status: number; type?: string; message: string } {
  if (!e || typeof e !== 'object') return false;
  const s = (e as { status?: unknown }).status;
  return typeof s === 'number' && s >= 400 && s < 500;
}
