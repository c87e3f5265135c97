/** Linux /proc figures of a server process: CPU ticks and RSS (stat), run-queue wait (schedstat). */
/** utime + stime (clock ticks) and RSS (pages) from the text of /proc/<pid>/stat. */
export function parseProcStat(text: string): { cpuTicks: number; rssPages: number } {
  // the command name (field 2) is in parentheses and may contain spaces: split after the last ')'
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state): utime = field 14, stime = field 15, rss = field 24
  return { cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
}

/**
 * A thread's /proc/<pid>/task/<tid>/schedstat ("<ns on a CPU> <ns waiting on a run queue> <timeslices>"): the time
 * it was runnable but had no core, in nanoseconds since it started.
 */
export function parseSchedstat(text: string): { waitNs: number } {
  const fields = text.trim().split(/\s+/).map(Number);
  if (fields.length < 2 || !fields.every(Number.isFinite)) throw new Error(`not a schedstat line: ${text}`);
  return { waitNs: fields[1] };
}
