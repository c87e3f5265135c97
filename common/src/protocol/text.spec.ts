import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseChatInput } from './chat';
import { checkUsername, USERNAME_MESSAGE } from './http';
import {
  checkActionId,
  checkChatText,
  checkExactText,
  checkLineText,
  hasLoneSurrogate,
  nameKey,
  normalizeName,
  TEXT_REFUSAL_MESSAGES,
  TextRefusal,
} from './text';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const C0_BUT_TAB_LF = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter(
  (c) => c !== '\t' && c !== '\n',
);
const C1_AND_DEL = Array.from({ length: 33 }, (_, i) => String.fromCharCode(0x7f + i));

/** Is the string valid for PostgreSQL text/jsonb: no NUL, no lone surrogate. */
const storable = (s: string) => !s.includes('\u0000') && !hasLoneSurrogate(s);

describe('chat text', () => {
  it('refuses every C0 control but tab/newline, DEL and C1 controls, with the control message', () => {
    for (const c of [...C0_BUT_TAB_LF, ...C1_AND_DEL]) {
      expect(checkChatText(`a${c}b`)).toEqual({
        ok: false,
        code: TextRefusal.CONTROL,
        message: 'A chat message cannot contain control characters',
      });
    }
    expect(checkChatText('a\tb\nc')).toEqual({ ok: true, text: 'a\tb\nc' });
    expect(checkChatText('a\r\nb')).toEqual({ ok: true, text: 'a\nb' });
  });

  it('refuses lone surrogates but keeps pairs (emoji)', () => {
    for (const s of ['\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d']) {
      expect(checkChatText(s)).toMatchObject({ ok: false, code: TextRefusal.LONE_SURROGATE });
    }
    expect(checkChatText('hi 🂡 😀')).toEqual({ ok: true, text: 'hi 🂡 😀' });
  });

  it('refuses bidi overrides, embeddings and isolates', () => {
    for (const b of BIDI) {
      expect(checkChatText(`abc${b}def`)).toEqual({
        ok: false,
        code: TextRefusal.BIDI,
        message: 'A chat message cannot contain text-direction override characters',
      });
    }
  });

  it('strips zero-width characters', () => {
    expect(checkChatText(`a${ZERO_WIDTH.join('')}b`)).toEqual({ ok: true, text: 'ab' });
  });

  it('parseChatInput applies the rules (every chat path: client, lobby, table)', () => {
    expect(parseChatInput('hi\u0000')).toEqual({ ok: false, message: TEXT_REFUSAL_MESSAGES.control('A chat message') });
    expect(parseChatInput({ message: '\ud800' })).toEqual({
      ok: false,
      message: TEXT_REFUSAL_MESSAGES.lone_surrogate('A chat message'),
    });
    expect(parseChatInput('\u202eevil')).toEqual({ ok: false, message: TEXT_REFUSAL_MESSAGES.bidi('A chat message') });
    expect(parseChatInput(' \u200b ')).toEqual({ ok: false, message: 'A chat message cannot be empty' });
    expect(parseChatInput(' good\u200bgame ')).toEqual({ ok: true, text: 'goodgame' });
  });

  it('property: whatever the input, an accepted chat text is storable and holds no refused character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        const r = parseChatInput(s);
        if (!r.ok) return;
        expect(storable(r.text)).toBe(true);
        expect(/[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/.test(r.text)).toBe(false);
        // eslint-disable-next-line no-control-regex -- matching control characters is the point
        expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(r.text)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('property: well-formed text without controls or bidi characters is accepted unchanged (but for trimming and zero-width)', () => {
    const safe = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter(
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      (s) => !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff\r]/.test(s),
    );
    fc.assert(
      fc.property(safe, (s) => {
        expect(checkChatText(s)).toEqual({ ok: true, text: s });
      }),
    );
  });
});

describe('single-line and exact text', () => {
  it('refuses tab and newline too, strips zero-width and trims', () => {
    expect(checkLineText('a\tb', 'reason')).toEqual({
      ok: false,
      code: TextRefusal.CONTROL,
      message: 'reason cannot contain control characters',
    });
    expect(checkLineText('a\nb', 'reason')).toMatchObject({ ok: false, code: TextRefusal.CONTROL });
    expect(checkLineText(' my\u200btable ', 'name')).toEqual({ ok: true, text: 'mytable' });
    expect(checkLineText(42, 'name')).toEqual({ ok: false, code: TextRefusal.NOT_TEXT, message: 'name must be text' });
  });

  it('exact text refuses zero-width characters instead of stripping them', () => {
    expect(checkExactText('a\u200b@b.io', 'email')).toMatchObject({ ok: false, code: TextRefusal.CONTROL });
    expect(checkExactText('a\u202e@b.io', 'email')).toMatchObject({ ok: false, code: TextRefusal.BIDI });
    expect(checkExactText('a@b.io', 'email')).toEqual({ ok: true, text: 'a@b.io' });
  });

  it('property: an accepted line text is storable and single-line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const r = checkLineText(s, 'x');
        if (!r.ok) return;
        expect(storable(r.text)).toBe(true);
        // eslint-disable-next-line no-control-regex -- matching control characters is the point
        expect(/[\u0000-\u001f\u007f-\u009f]/.test(r.text)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('action ids', () => {
  it('printable ASCII only', () => {
    expect(checkActionId('a-1_b:2 ~')).toEqual({ ok: true, text: 'a-1_b:2 ~' });
    for (const bad of ['a\u0000', 'é', '\ud800', '\u202e', 'a\tb', '\u007f']) {
      expect(checkActionId(bad)).toEqual({
        ok: false,
        code: TextRefusal.NOT_PRINTABLE_ASCII,
        message: 'actionId may only contain printable ASCII characters',
      });
    }
  });
});

describe('names', () => {
  it('normalizes with NFKC and strips zero-width characters', () => {
    expect(normalizeName('ａｄｍｉｎ')).toBe('admin');
    expect(normalizeName('ad\u200bmin\ufeff')).toBe('admin');
  });

  it('the look-alike key makes admin1, AdminI, adm1n1, ADMINl and admin| collide', () => {
    const key = nameKey('admin1');
    for (const n of ['AdminI', 'adm1n1', 'ADMINl', 'admin|', 'ａｄｍｉｎ１', 'ad\u200bmin1'])
      expect(nameKey(n)).toBe(key);
    expect(nameKey('modern')).toBe(nameKey('modem'));
    expect(nameKey('vvin')).toBe(nameKey('win'));
    expect(nameKey('b0b')).toBe(nameKey('bob'));
    expect(nameKey('ace_of-spades')).toBe(nameKey('ace-of_spades'));
    expect(nameKey('alice')).not.toBe(nameKey('bob'));
    expect(nameKey('admin2')).not.toBe(key);
  });

  it('property: the key ignores case and zero-width characters, and is stable', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{3,20}$/),
        fc.constantFrom(...ZERO_WIDTH),
        fc.nat(20),
        (name, zw, at) => {
          const i = Math.min(at, name.length);
          expect(nameKey(name.toUpperCase())).toBe(nameKey(name.toLowerCase()));
          expect(nameKey(name.slice(0, i) + zw + name.slice(i))).toBe(nameKey(name));
          expect(nameKey(nameKey(name))).toBe(nameKey(name));
        },
      ),
    );
  });

  it('checkUsername: normalized, its key, and a clear refusal per rule', () => {
    expect(checkUsername('ａｃｅ_1')).toEqual({ ok: true, username: 'ace_1', key: nameKey('ace_1') });
    expect(checkUsername('ace\u200b_1')).toEqual({ ok: true, username: 'ace_1', key: nameKey('ace_1') });
    expect(checkUsername('ace\u202e1')).toEqual({
      ok: false,
      message: 'username cannot contain text-direction override characters',
    });
    expect(checkUsername('ace\u0000')).toEqual({ ok: false, message: 'username cannot contain control characters' });
    expect(checkUsername('ace\ud800')).toEqual({
      ok: false,
      message: 'username contains a broken character (a lone UTF-16 surrogate)',
    });
    expect(checkUsername('ac é')).toEqual({ ok: false, message: USERNAME_MESSAGE });
    expect(checkUsername(7)).toEqual({ ok: false, message: 'username must be a string' });
  });
});
