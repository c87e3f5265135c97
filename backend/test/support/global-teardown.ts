import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const dir = process.env.SPADES_PGLITE_TEMPLATE;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
