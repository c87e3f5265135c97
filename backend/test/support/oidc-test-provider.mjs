// A real OpenID Connect provider (the `oidc-provider` package, ESM) for backend/test/oidc.spec.ts, run as a child
// process: `node oidc-test-provider.mjs <client_id> <client_secret> <redirect_uri>`. Prints `READY <issuer>`.
// Its interaction page signs in, without a form, the account last sent to POST /__test/next-login
// ({ sub, email, email_verified, name }) and grants the requested scopes.
import http from 'node:http';
import Provider from 'oidc-provider';

const [clientId, clientSecret, redirectUri] = process.argv.slice(2);
const accounts = new Map();
let nextLogin = null;

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
  async findAccount(_ctx, sub) {
    const a = accounts.get(sub);
    if (!a) return undefined;
    return {
      accountId: sub,
      async claims() {
        return { sub, email: a.email, email_verified: a.email_verified, name: a.name, preferred_username: a.name };
      },
    };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  pkce: { required: () => true },
  cookies: { keys: ['oidc-test-provider-cookie-key'] },
});

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

provider.use(async (ctx, next) => {
  if (ctx.method === 'POST' && ctx.path === '/__test/next-login') {
    nextLogin = await readJson(ctx.req);
    accounts.set(nextLogin.sub, nextLogin);
    ctx.body = { ok: true };
    return;
  }
  const m = /^\/interaction\/([^/]+)$/.exec(ctx.path);
  if (ctx.method === 'GET' && m) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (!nextLogin) {
      ctx.status = 400;
      ctx.body = 'no test login set';
      return;
    }
    const grant = new provider.Grant({ accountId: nextLogin.sub, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    ctx.respond = false;
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: nextLogin.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  await next();
});

server.on('request', provider.callback());
process.stdout.write(`READY ${issuer}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
