import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { SocialController, UsersController } from './social.controller';
import { SocialService } from './social.service';

@Module({
  imports: [UsersModule],
  controllers: [SocialController, UsersController],
  providers: [SocialService],
  exports: [SocialService],
})
export class SocialModule {}
