import { validateSettings } from '@spades/common';
import { IsBoolean, IsOptional, ValidateBy } from 'class-validator';
import { objectOf, PayloadInput, type PayloadObject } from '../common/payload';
import { REQUEST_ERRORS } from './game-id.input';

/**
 * A new table (HTTP `POST /api/games`: the settings are the body; socket `create_game`: `settings` or `rules`,
 * else the payload itself) and `private`. The settings are checked by the rules' own `validateSettings`.
 */
export class CreateGameInput extends PayloadInput {
  static normalize(data: unknown): PayloadObject {
    const o = objectOf(data);
    return { settings: o.settings ?? o.rules ?? o, private: o.private };
  }

  @ValidateBy({
    name: 'isGameSettings',
    validator: {
      validate: (v: unknown) => validateSettings(v).ok,
      defaultMessage: (args) => {
        const r = validateSettings(args?.value);
        return r.ok ? 'settings are not valid' : r.message;
      },
    },
  })
  settings!: unknown;

  @IsOptional()
  @IsBoolean({ message: REQUEST_ERRORS.PRIVATE })
  private?: boolean;
}
