import { Global, Module } from '@nestjs/common';
import { CoinsService } from './coins.service';

@Global()
@Module({ providers: [CoinsService], exports: [CoinsService] })
export class CoinsModule {}
