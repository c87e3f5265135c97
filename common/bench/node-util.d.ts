// common has no Node types (the library does no I/O); the bench scripts run under tsx on Node and read their
// options with node:util parseArgs, declared here as far as they use it.
declare module 'node:util' {
  export function parseArgs(config: {
    args?: string[];
    options: Record<string, { type: 'string' | 'boolean' }>;
    strict?: boolean;
    allowPositionals?: boolean;
  }): { values: Record<string, string | boolean | undefined>; positionals: string[] };
}
