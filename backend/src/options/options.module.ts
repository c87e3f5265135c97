import { Module } from '@nestjs/common';
import { OptionsController } from './options.controller';
import { OptionsService } from './options.service';

/** Issue #31: per-player table options (four-colour deck, card size, reduced motion, volume, quick chat, bid hint). */
@Module({
  controllers: [OptionsController],
  providers: [OptionsService],
  exports: [OptionsService],
})
export class OptionsModule {}
