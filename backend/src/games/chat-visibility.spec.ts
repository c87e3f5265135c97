/** ChatBlocks.visibleTo: a viewer never sees the chat of players they block; the blocks are read only when needed. */
import type { DataSource } from 'typeorm';
import { ChatBlocks, SYSTEM_SENDER } from './chat-visibility';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

function blocks(rows: { user_id: string; target_id: string }[]) {
  const queries: unknown[][] = [];
  const ds = {
    query: async (_sql: string, params: unknown[]) => (queries.push(params), rows),
  } as unknown as DataSource;
  return { chat: new ChatBlocks(ds), queries };
}

describe('ChatBlocks.visibleTo', () => {
  const sys = { userId: SYSTEM_SENDER, text: 'B is watching.' };

  it('reads no blocks when only the system and the viewer wrote', async () => {
    const { chat, queries } = blocks([{ user_id: A, target_id: B }]);
    const lines = [sys, { userId: A, text: 'hi' }];
    const seen = await chat.visibleTo(lines, A);
    expect(seen).toEqual(lines);
    expect(seen).not.toBe(lines); // a copy, as visibleChat
    expect(queries).toEqual([]);
  });

  it("reads the viewer's blocks once another player wrote, and hides the blocked sender's lines", async () => {
    const { chat, queries } = blocks([{ user_id: A, target_id: B }]);
    const lines = [sys, { userId: B, text: 'spam' }, { userId: C, text: 'gg' }];
    expect(await chat.visibleTo(lines, A)).toEqual([sys, { userId: C, text: 'gg' }]);
    expect(queries).toEqual([[[A]]]);
  });
});
