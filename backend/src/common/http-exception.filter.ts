import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';

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
 * malformed JSON, payload too large) keep their 4xx status; anything unexpected is a logged 500 with a
 * generic message (no internals leak).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
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
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    res.status(status).json({ message });
  }
}

function isClientHttpError(e: unknown): e is { status: number; type?: string; message: string } {
  if (!e || typeof e !== 'object') return false;
  const s = (e as { status?: unknown }).status;
  return typeof s === 'number' && s >= 400 && s < 500;
}
