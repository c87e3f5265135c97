/**
 * A tiny loopback stand-in for GitHub's OAuth app endpoints (issue #26): the authorize page (`authorize()`),
 * POST /login/oauth/access_token (authorization_code + PKCE S256 check, JSON or form answer like GitHub),
 * GET /user and GET /user/emails.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';

export interface FakeGithubUser {
  id: number;
  login: string;
  name?: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export const GH_CLIENT_ID = 'gh-client-id';
export const GH_CLIENT_SECRET = 'gh-client-secret';
export const GH_REDIRECT_URI = 'http://localhost:5173/api/auth/oidc/github/callback';

export class FakeGithub {
  private server!: Server;
  url = '';
  private readonly codes = new Map<string, { challenge: string; user: FakeGithubUser }>();
  private readonly tokens = new Map<string, FakeGithubUser>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  env(): Record<string, string> {
    return {
      GITHUB_CLIENT_ID: GH_CLIENT_ID,
      GITHUB_CLIENT_SECRET: GH_CLIENT_SECRET,
      GITHUB_AUTHORIZE_URL: `${this.url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${this.url}/login/oauth/access_token`,
      GITHUB_API_URL: this.url,
    };
  }

  /** GitHub's consent page: checks the request and returns the redirect back to the server (code + state). */
  authorize(authorizeUrl: string, user: FakeGithubUser): URL {
    const u = new URL(authorizeUrl);
    const q = u.searchParams;
    if (`${u.origin}${u.pathname}` !== `${this.url}/login/oauth/authorize`) throw new Error(`wrong URL ${u}`);
    if (q.get('client_id') !== GH_CLIENT_ID) throw new Error('wrong client_id');
    if (q.get('redirect_uri') !== GH_REDIRECT_URI) throw new Error('wrong redirect_uri');
    if (q.get('code_challenge_method') !== 'S256') throw new Error('PKCE S256 required');
    if (!(q.get('scope') ?? '').split(' ').includes('user:email')) throw new Error('user:email scope required');
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { challenge: q.get('code_challenge')!, user });
    const back = new URL(GH_REDIRECT_URI);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state')!);
    return back;
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let text = '';
      for await (const c of req) text += String(c);
      const f = new URLSearchParams(text);
      const issued = this.codes.get(f.get('code') ?? '');
      this.codes.delete(f.get('code') ?? '');
      const verifier = f.get('code_verifier') ?? '';
      if (
        !issued ||
        f.get('client_id') !== GH_CLIENT_ID ||
        f.get('client_secret') !== GH_CLIENT_SECRET ||
        createHash('sha256').update(verifier).digest('base64url') !== issued.challenge
      ) {
        return [200, { error: 'bad_verification_code' }]; // GitHub answers 200 with an error
      }
      const token = randomBytes(12).toString('hex');
      this.tokens.set(token, issued.user);
      return [200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' }];
    }
    const user = this.tokens.get((req.headers.authorization ?? '').replace(/^(Bearer|token) /i, ''));
    if (!user) return [401, { message: 'Bad credentials' }];
    if (url.pathname === '/user') return [200, { id: user.id, login: user.login, name: user.name ?? null }];
    if (url.pathname === '/user/emails') return [200, user.emails];
    return [404, { message: 'Not Found' }];
  }
}
