import { checkExactText, checkLineText, checkUsername, parseChatInput, TextCheck } from '@spades/common';
import { isEmail, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * class-validator decorators over the text rules of common/src/protocol/text.ts (issue #24): the refusal message
 * is the rule's own ("email cannot contain text-direction override characters").
 */
function byCheck(
  name: string,
  check: (v: unknown) => { ok: true } | { ok: false; message: string },
  options?: ValidationOptions,
) {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => check(value).ok,
        defaultMessage: (args) => {
          const r = check(args?.value);
          return r.ok ? `${args?.property} is not valid` : r.message;
        },
      },
    },
    options,
  );
}

/** A username: `checkUsername` (normalized form checked against USERNAME_PATTERN; bidi/controls refused). */
export const IsUsername = (options?: ValidationOptions) => byCheck('isUsername', checkUsername, options);

/** A text stored as sent (e-mail): no controls, bidi, lone surrogates or zero-width characters. */
export const IsExactText = (label: string, options?: ValidationOptions) =>
  byCheck('isExactText', (v): TextCheck => checkExactText(v, label), options);

export const EMAIL_MESSAGE = 'email must be a valid email address';

/**
 * An e-mail address: the exact-text rules first, then the address check — which must never see a lone surrogate
 * (validator's isEmail throws URIError on one: a 500 before this check existed).
 */
export const IsEmailText = (options?: ValidationOptions) =>
  byCheck(
    'isEmailText',
    (v) => {
      const r = checkExactText(v, 'email');
      if (!r.ok) return r;
      return isEmail(r.text) ? r : { ok: false as const, message: EMAIL_MESSAGE };
    },
    options,
  );

/** A short single-line text: no controls at all, no bidi, no lone surrogates. */
export const IsLineText = (label: string, options?: ValidationOptions) =>
  byCheck('isLineText', (v): TextCheck => checkLineText(v, label), options);

/** A chat line, lobby or table: `parseChatInput` (trimmed, 1–200 characters, the chat text rules). */
export const IsChatText = (options?: ValidationOptions) => byCheck('isChatText', parseChatInput, options);
