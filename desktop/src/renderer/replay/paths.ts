/** Route of a finished game's replay (`?game=N`: the N-th game at that table; default the latest). */
export function replayPath(gameId: string, gameNumber?: number): string {
  return `/replay/${encodeURIComponent(gameId)}${gameNumber ? `?game=${gameNumber}` : ''}`;
}
