/** `PUT /api/users/me/options` (issue #29): the body through common's `parsePlayerOptionsInput`, before the handler. */
import { parsePlayerOptionsInput } from '@spades/common';
import { PayloadInput, Satisfies, type PayloadObject } from '../common/payload';

const isObject = (v: unknown): v is PayloadObject => !!v && typeof v === 'object' && !Array.isArray(v);

export class PlayerOptionsBodyInput extends PayloadInput {
  /** A body that is not an object is kept (as `notAnObject`) so the check refuses it with its own text. */
  static normalize(data: unknown): PayloadObject {
    return isObject(data) ? data : { notAnObject: data };
  }

  /** The check runs on the whole body (the options are the body's own fields). */
  @Satisfies((o) => parsePlayerOptionsInput(isObject(o) && 'notAnObject' in o ? o.notAnObject : o), { whole: true })
  readonly options?: never;
}
