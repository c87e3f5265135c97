import { existsSync, readFileSync, rmSync } from 'node:fs';
import { STATE_FILE } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return;
  const { pid, dataDir } = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { pid?: number; dataDir?: string };
  rmSync(STATE_FILE, { force: true });
  if (pid) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await new Promise((r) => setTimeout(r, 1500));
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* exited */
    }
  }
  if (dataDir && process.env.E2E_KEEP_DATA !== '1') rmSync(dataDir, { recursive: true, force: true });
}
