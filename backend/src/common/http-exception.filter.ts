import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { isErrorCode, type ErrorCode, type HttpErrorBody } from '@spades/common';
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
 * The typed code of a refusal, if it has one of the wire's list: the exception's own `code` (a TableError, an
 * InvalidPayload) or its response's (`new HttpException({ message, code }, status)`). Anything else (a driver's
 * `code`, a stray string) is left out.
 */
export function codeOf(exception: unknown): ErrorCode | undefined {
  if (!exception || typeof exception !== 'object') return undefined;
  const own = (exception as { code?: unknown }).code;
  if (isErrorCode(own)) return own;
  if (exception instanceof HttpException) {
    const r = exception.getResponse();
    const inner = r && typeof r === 'object' ? (r as { code?: unknown }).code : undefined;
    if (isErrorCode(inner)) return inner;
  }
  return undefined;
}

/**
 * Every HTTP error leaves as `{ message, code? }` (`HttpErrorBody`) with its status: `code` when the refusal has a
 * typed one, for the client to react to (never to the text). Errors raised by Express middleware (body parser:
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
    let code: ErrorCode | undefined;
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOf(exception.getResponse(), exception.message);
      code = codeOf(exception);
    } else if (isClientHttpError(exception)) {
      status = exception.status;
      code = codeOf(exception);
      message =
        exception.type === 'entity.parse.failed'
          ? 'Malformed JSON body'
          : exception.type === 'entity.too.large'
            ? 'Request body is too large'
            : exception.message;
    } else {
      message = reportUnexpected(this.logger, `${req?.method ?? 'HTTP'} ${req?.url ?? ''}`.trim(), exception);
    }
    const body: HttpErrorBody = code === undefined ? { message } : { message, code };
    res.status(status).json(body);
  }
}

function isClientHttpError(e: unknown): e is { status: number; type?: string; message: string } {
  if (!e || typeof e !== 'object') return false;
  const s = (e as { status?: unknown }).status;
  return typeof s === 'number' && s >= 400 && s < 500;
}
