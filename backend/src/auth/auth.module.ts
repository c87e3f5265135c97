import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/config.schema';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { APP_PASSPORT, appPassportProvider } from './app-passport';
import { AuthProvidersController } from './auth-providers.controller';
import { AuthService } from './auth.service';
import { DiscordCallbackGuard, DiscordLoginGuard } from './discord-auth.guard';
import { DiscordService } from './discord.service';
import { DiscordStrategy } from './discord.strategy';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtStrategy, sessionKey } from './jwt.strategy';
import { LoginLimiter, RegistrationLimiter } from './login-limiter';
import { TokenService } from './token.service';
import { SsoAccountsService } from './sso-accounts.service';
import { SsoController } from './sso.controller';
import { SsoStrategies } from './sso.strategies';

/**
 * Authentication through passport (@nestjs/passport), on the app's own passport instance (APP_PASSPORT): the
 * `jwt` strategy (JwtStrategy) checks session tokens for HTTP (JwtAuthGuard = AuthGuard('jwt')) and sockets
 * (TokenService.authenticate runs the same strategy); the `discord` strategy (DiscordStrategy, passport-oauth2
 * with state + PKCE) signs in with Discord. Global so every
 * feature module can use JwtAuthGuard / TokenService without importing it.
 */
@Global()
@Module({
  imports: [
    UsersModule,
    PassportModule.register({ session: false }),
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (c: AppConfig) => ({
        // a KeyObject: no key parsing per token (see sessionKey)
        privateKey: sessionKey(c.jwtSecret),
        signOptions: { expiresIn: c.jwtExpiresInSeconds, algorithm: 'HS256' },
      }),
    }),
  ],
  controllers: [AuthController, AuthProvidersController, SsoController],
  providers: [
    appPassportProvider,
    AuthService,
    DiscordService,
    DiscordStrategy,
    DiscordLoginGuard,
    DiscordCallbackGuard,
    JwtStrategy,
    LoginLimiter,
    RegistrationLimiter,
    TokenService,
    JwtAuthGuard,
    // issue #26: OpenID Connect issuers and GitHub
    SsoStrategies,
    SsoAccountsService,
  ],
  exports: [APP_PASSPORT, PassportModule, TokenService, JwtAuthGuard, UsersModule],
})
export class AuthModule {}
