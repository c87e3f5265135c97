/** Issue #29: the invitation page reacts to the refusal's typed code (HttpErrorBody), never to its text. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { WireError, type HttpErrorBody } from '@spades/common';
import { InviteGate } from './InviteGate';

afterEach(() => {
  vi.restoreAllMocks();
});

const ENDED = 'Only the players of this game can see it.';
const ASK = 'Ask the host for an invitation or a new invitation link.';

/** Opens an invite link whose `POST /join` is refused with `body`; returns the join requests made. */
function openLink(body: HttpErrorBody, status = 403): string[] {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  render(
    <MemoryRouter initialEntries={['/table/g1?invite=stale-token']}>
      <Routes>
        <Route
          path="/table/:gameId"
          element={
            <InviteGate>
              <p>table page</p>
            </InviteGate>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  return calls;
}

describe('InviteGate reacts to the refusal code', () => {
  it('PRIVATE_GAME: a game that ended, whatever the text says', async () => {
    const calls = openLink({ message: 'Players only, sorry', code: WireError.PRIVATE_GAME });
    expect(await screen.findByRole('heading', { name: 'Players only, sorry' })).toBeInTheDocument();
    expect(screen.getByText(ENDED)).toBeInTheDocument();
    expect(screen.queryByText(ASK)).not.toBeInTheDocument();
    expect(screen.queryByText('table page')).not.toBeInTheDocument();
    expect(calls).toEqual([expect.stringMatching(/^POST .*\/api\/games\/g1\/join$/)]);
  });

  it('PRIVATE_TABLE: ask for an invitation, even when the text reads like an ended game', async () => {
    openLink({ message: 'This game is private: only its players can see it', code: WireError.PRIVATE_TABLE });
    expect(await screen.findByText(ASK)).toBeInTheDocument();
    expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
  });

  it('no code (or one outside the list): ask for an invitation', async () => {
    openLink({ message: 'This game is private: only its players can see it' });
    expect(await screen.findByText(ASK)).toBeInTheDocument();
    expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
  });
});
