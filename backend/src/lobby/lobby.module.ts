import { Module } from '@nestjs/common';
import { SocialModule } from '../social/social.module';
import { UsersModule } from '../users/users.module';
import { LobbyChatService } from './lobby-chat.service';
import { LobbyGateway } from './lobby.gateway';

@Module({ imports: [UsersModule, SocialModule], providers: [LobbyGateway, LobbyChatService] })
export class LobbyModule {}
