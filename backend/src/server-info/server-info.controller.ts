import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  REGISTRATION_MODES,
  SIGN_IN_METHODS,
  type RegistrationMode,
  type ServerInfo,
  type SignInMethod,
  type SsoProviderInfo,
} from '@spades/common';

/** One sign-in besides e-mail and password (SsoProviderInfo). */
export class SignInProviderDto implements SsoProviderInfo {
  @ApiProperty({ example: 'google', description: "'discord', 'github', or an OpenID Connect provider id" }) id!: string;
  @ApiProperty({ example: 'Google', maxLength: 40, description: 'the button text: "Sign in with <label>"' })
  label!: string;
  @ApiProperty({ enum: ['discord', 'oidc', 'github'] }) kind!: SsoProviderInfo['kind'];
}
import { ServerInfoService } from './server-info.service';

/** The OpenAPI shape of ServerInfo (common/src/protocol/server-info.ts). */
export class ServerInfoDto implements ServerInfo {
  @ApiProperty({ enum: ['spades'] }) kind!: 'spades';
  @ApiProperty({ example: 'Friday Night Spades', maxLength: 80 }) name!: string;
  @ApiProperty({ type: String, nullable: true, example: 'https://spades.example.org/icon.png' }) icon!: string | null;
  @ApiProperty({ maxLength: 500 }) description!: string;
  @ApiProperty({ example: '0.1.0', description: 'server software version' }) version!: string;
  @ApiProperty({ example: 1, description: 'wire protocol version; the app refuses a server that speaks another one' })
  protocolVersion!: number;
  @ApiProperty({ enum: SIGN_IN_METHODS, isArray: true, description: 'the ways to sign in offered now' })
  signIn!: SignInMethod[];
  @ApiProperty({
    type: [SignInProviderDto],
    description: 'every sign-in offered now besides e-mail and password, with its button label',
  })
  providers!: SsoProviderInfo[];
  @ApiProperty({ enum: REGISTRATION_MODES }) registration!: RegistrationMode;
}

/** Public and cacheable: the desktop app checks a server by address before adding it (issue #30). */
@ApiTags('server')
@Controller('server-info')
export class ServerInfoController {
  constructor(private readonly service: ServerInfoService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'What this community server is: name, icon, description, versions, sign-in, registration' })
  @ApiOkResponse({ type: ServerInfoDto })
  info(): Promise<ServerInfo> {
    return this.service.info();
  }
}
