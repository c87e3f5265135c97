// While the window is not focused, "your turn" at a table asks for the player's attention: the taskbar entry
// flashes (Windows, Linux; the dock bounces on macOS) and the badge counts the tables waiting for the player
// (macOS dock, Linux launchers that show counts). Focusing the window clears both.
export interface AttentionDeps {
  isWindowFocused(): boolean;
  flashFrame(on: boolean): void;
  /** app.setBadgeCount; 0 removes the badge. */
  setBadgeCount(count: number): void;
}

export interface Attention {
  /** A "your turn" at `gameId`. Returns the number of tables now waiting (0 when the window has focus). */
  yourTurn(gameId: string): number;
  /** The window got focus: the player is here. */
  focused(): void;
  waiting(): number;
}

export function createAttention(deps: AttentionDeps): Attention {
  const waiting = new Set<string>();
  const show = (): void => {
    deps.setBadgeCount(waiting.size);
    deps.flashFrame(waiting.size > 0);
  };
  return {
    yourTurn(gameId) {
      if (deps.isWindowFocused()) return 0;
      if (!waiting.has(gameId)) {
        waiting.add(gameId);
        show();
      }
      return waiting.size;
    },
    focused() {
      if (waiting.size === 0) return;
      waiting.clear();
      show();
    },
    waiting: () => waiting.size,
  };
}
