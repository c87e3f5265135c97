// A minimal logger interface so modules can be tested with a recording fake.
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const consoleLogger: Logger = {
  info: (m) => console.log(`[spades] ${m}`),
  warn: (m) => console.warn(`[spades] ${m}`),
  error: (m) => console.error(`[spades] ${m}`),
};

/** A logger that records lines, for tests. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
