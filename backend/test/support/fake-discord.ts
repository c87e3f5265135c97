/**
 * A tiny OAuth2 provider on loopback that behaves like Discord for the endpoints the server uses:
 * POST /oauth2/token (authorization_code + PKCE S256 check) and GET /users/@me.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

export const FAKE_CLIENT_ID = 'fake-client-id';
export const FAKE_CLIENT_SECRET = 'fake-client-secret';
export const FAKE_REDIRECT_URI = 'http://127.0.0.1/api/auth/discord/callback';

interface IssuedCode {
  challenge: string;
  redirectUri: string;
  clientId: string;
  user: FakeDiscordUser;
}

export class FakeDiscord {
  private server!: Server;
  url = '';
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, FakeDiscordUser>();
  readonly tokenRequests: { ok: boolean; reason?: string }[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req)
        .then(([status, body]) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        })
        .catch(() => {
          res.writeHead(500);
          res.end();
        });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  env(): Record<string, string> {
    return {
      DISCORD_CLIENT_ID: FAKE_CLIENT_ID,
      DISCORD_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      DISCORD_REDIRECT_URI: FAKE_REDIRECT_URI,
      DISCORD_AUTHORIZE_URL: `${this.url}/oauth2/authorize`,
      DISCORD_API_URL: this.url,
    };
  }

  /**
   * What Discord's consent page does: validates the authorize request the server redirected to and returns
   * the redirect back to the server's callback (with code and state). Throws on an invalid request.
   */
  authorize(authorizeUrl: string, user: FakeDiscordUser): URL {
    const u = new URL(authorizeUrl);
    const q = u.searchParams;
    if (`${u.origin}${u.pathname}` !== `${this.url}/oauth2/authorize`) throw new Error(`wrong authorize URL ${u}`);
    if (q.get('response_type') !== 'code') throw new Error('response_type must be code');
    if (q.get('client_id') !== FAKE_CLIENT_ID) throw new Error('wrong client_id');
    if (q.get('code_challenge_method') !== 'S256') throw new Error('PKCE S256 required');
    if (!/^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '')) throw new Error('bad code_challenge');
    if (!q.get('state') || (q.get('state') ?? '').length < 16) throw new Error('state required');
    if (!(q.get('scope') ?? '').split(' ').includes('identify')) throw new Error('identify scope required');
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, {
      challenge: q.get('code_challenge')!,
      redirectUri: q.get('redirect_uri')!,
      clientId: q.get('client_id')!,
      user,
    });
    const back = new URL(q.get('redirect_uri')!);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state')!);
    return back;
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const fail = (reason: string): [number, unknown] => {
        this.tokenRequests.push({ ok: false, reason });
        return [400, { error: 'invalid_grant', error_description: reason }];
      };
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return fail('content-type');
      if (form.get('grant_type') !== 'authorization_code') return fail('grant_type');
      if (form.get('client_id') !== FAKE_CLIENT_ID || form.get('client_secret') !== FAKE_CLIENT_SECRET)
        return fail('client');
      const issued = this.codes.get(form.get('code') ?? '');
      if (!issued) return fail('unknown code');
      this.codes.delete(form.get('code')!);
      if (form.get('redirect_uri') !== issued.redirectUri) return fail('redirect_uri');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (challenge !== issued.challenge) return fail('PKCE verifier does not match the challenge');
      const token = randomBytes(16).toString('hex');
      this.tokens.set(token, issued.user);
      this.tokenRequests.push({ ok: true });
      return [200, { access_token: token, token_type: 'Bearer', expires_in: 604800, scope: 'identify email' }];
    }
    if (req.method === 'GET' && url.pathname === '/users/@me') {
      const m = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '');
      const user = m ? this.tokens.get(m[1]) : undefined;
      if (!user) return [401, { message: '401: Unauthorized' }];
      return [200, user];
    }
    return [404, { message: 'not found' }];
  }
}
