import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

function collect(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out.push(...Object.values(e.constraints));
    if (e.children?.length) out.push(...collect(e.children, path));
  }
  return out;
}

/** whitelist + forbidNonWhitelisted: unknown fields are rejected; all problems in one `{ message }`. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException({ message: collect(errors).join('; ') || 'Invalid request' }),
  });
}
