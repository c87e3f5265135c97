import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig, loadAppConfig } from './config.schema';

/**
 * Wraps @nestjs/config: the environment (plus optional overrides, used by tests) is validated by the zod
 * schema once at start-up; an invalid value throws and stops the boot with a clear message.
 * The validated object is nested under `app` so @nestjs/config does not copy it back into process.env.
 */
@Global()
@Module({})
export class AppConfigModule {
  static async forRoot(overrides?: Record<string, string | undefined>): Promise<DynamicModule> {
    const configModule = await ConfigModule.forRoot({
      ignoreEnvFile: overrides !== undefined,
      validate: (raw) => ({ app: loadAppConfig({ ...raw, ...(overrides ?? {}) }) }),
    });
    return {
      module: AppConfigModule,
      imports: [configModule],
      providers: [
        {
          provide: AppConfig,
          inject: [ConfigService],
          useFactory: (cs: ConfigService) => cs.get<AppConfig>('app'),
        },
      ],
      exports: [AppConfig],
    };
  }
}
