import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AppConfig } from '../config/config.schema';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthProvidersController } from './auth-providers.controller';
import { AuthService } from './auth.service';
import { DiscordService } from './discord.service';
import { JwtAuthGuard } from './jwt-auth.guard';
import { LoginLimiter, RegistrationLimiter } from './login-limiter';
import { TokenService } from './token.service';

/** Global so every feature module can use JwtAuthGuard / TokenService without importing it. */
@Global()
@Module({
  imports: [
    UsersModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (c: AppConfig) => ({
        secret: c.jwtSecret,
        signOptions: { expiresIn: c.jwtExpiresInSeconds, algorithm: 'HS256' },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController, AuthProvidersController],
  providers: [AuthService, DiscordService, LoginLimiter, RegistrationLimiter, TokenService, JwtAuthGuard],
  exports: [TokenService, JwtAuthGuard, UsersModule],
})
export class AuthModule {}
