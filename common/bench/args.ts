/**
 * The bench scripts' command line, read with node:util parseArgs: `--name value` or `--name=value` for the named
 * options, `--name` alone for the switches. Strict: an unknown (misspelt) option stops the script with an error.
 */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  /** The option's text, `fallback` when absent. */
  text(name: string, fallback: string): string;
  /** Whether the switch was given. */
  has(name: string): boolean;
}

export function benchArgs(options: readonly string[], switches: readonly string[] = []): BenchArgs {
  const config: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of options) config[name] = { type: 'string' };
  for (const name of switches) config[name] = { type: 'boolean' };
  const { values } = parseArgs({ options: config, strict: true, allowPositionals: true }); // positionals: npm's `--`
  return {
    text: (name, fallback) => {
      const v = values[name];
      return typeof v === 'string' ? v : fallback;
    },
    has: (name) => values[name] === true,
  };
}
