import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { InvalidPayload, isPayloadClass, parsePayload, validationMessages } from './payload';

/**
 * The global pipe: a body typed with a DTO is checked before the handler runs. Strict DTOs (auth, social,
 * admin): whitelist + forbidNonWhitelisted, unknown fields are refused. Protocol DTOs (`PayloadInput`, shared with
 * the socket): `parsePayload`, the same check and message as on the socket. All problems in one `{ message, code: INVALID_PAYLOAD }`.
 */
class AppValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isPayloadClass(metadata.metatype)) return parsePayload(metadata.metatype, value);
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidPayload(validationMessages(errors).join('; ') || 'Invalid request'),
  });
}
