import 'reflect-metadata';
import { createApp } from './bootstrap';
import { AppConfig, ConfigValidationError, loadAppConfig } from './config/config.schema';

async function bootstrap(): Promise<void> {
  try {
    loadAppConfig(process.env); // fail fast with a clear message, before Nest starts logging
  } catch (e) {
    if (e instanceof ConfigValidationError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.port);
  console.log(`Spades server listening on http://localhost:${config.port}`);
}

bootstrap().catch((e: unknown) => {
  console.error(`Spades server failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
