import { generateKeyPairSync } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** The claims the provider gives the next person who signs in through it. */
export interface IdpAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

interface InteractionDetails {
  prompt: { name: string };
  params: { client_id: string; scope?: string };
  session?: { accountId: string };
}

interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: object,
    options?: object,
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
}

type ProviderClass = new (issuer: string, configuration: object) => ProviderInstance;

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who "signs in" at the provider next (the login and consent are answered at once, as a person would). */
  nextAccount: IdpAccount;
  /** Accepts the console's callback (known once the console listens). */
  allowRedirect(uri: string): void;
  close(): Promise<void>;
}

// oidc-provider is an ES module: a native import, which the CommonJS the tests compile to cannot express.
const importModule = new Function('name', 'return import(name)') as (
  name: string,
) => Promise<{ default: unknown }>;

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, with one confidential client. Its
 * login and consent pages are replaced by a handler that finishes the interaction through the provider's API for
 * `nextAccount`; everything else (discovery, authorization, PKCE, tokens, ID tokens, user info) is the package's.
 */
export async function startIdp(): Promise<TestIdp> {
  quietProviderNotices();
  const Provider = (await importModule('oidc-provider')).default as ProviderClass;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, IdpAccount>();
  const idp: TestIdp = {
    issuer,
    clientId: 'outpost-console',
    clientSecret: 'idp-client-secret-8d2f5e6a',
    nextAccount: { email: 'ann@example.com', email_verified: true },
    allowRedirect(uri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            redirect_uris: [uri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: false } },
        jwks: { keys: [{ ...signingKey(), kid: 'test-key', alg: 'RS256', use: 'sig' }] },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
        findAccount: (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: () => ({ sub: id, ...accounts.get(id) }),
        }),
      });
      const callback = provider.callback();
      handler = (req, res) => {
        if (!req.url?.startsWith('/interaction/')) return callback(req, res);
        void (async () => {
          const details = await provider.interactionDetails(req, res);
          if (details.prompt.name === 'login') {
            const accountId = `sub-${idp.nextAccount.email}`;
            accounts.set(accountId, idp.nextAccount);
            await provider.interactionFinished(
              req,
              res,
              { login: { accountId } },
              { mergeWithLastSubmission: false },
            );
            return;
          }
          const grant = new provider.Grant({
            accountId: details.session?.accountId ?? '',
            clientId: details.params.client_id,
          });
          grant.addOIDCScope(details.params.scope ?? 'openid');
          const grantId = await grant.save();
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId } },
            { mergeWithLastSubmission: true },
          );
        })().catch((error: Error) => {
          res.statusCode = 500;
          res.end(error.message);
        });
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return idp;
}

/** The provider's ID token signing key (RS256, what clients expect by default). */
function signingKey(): object {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
}

let quiet = false;

/**
 * The package's start-up advice (development keys, the in-memory store, the runtime) is about running it in
 * production, which a test does not: those lines are dropped, anything else still prints.
 */
function quietProviderNotices(): void {
  if (quiet) return;
  quiet = true;
  for (const level of ['warn', 'info'] as const) {
    const print = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider ')) return;
      print(...args);
    };
  }
}

/** A browser's cookie jar, enough for following redirects between the console and the provider. */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) jar.delete(pair.slice(0, eq).trim());
      else jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    this.cookies.set(host, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }
}

/**
 * Follows redirects from `url` as a browser does (GET, cookies per host) until an answer is not a redirect;
 * returns every URL visited and the last answer.
 */
export async function followRedirects(
  url: string,
  jar = new CookieJar(),
): Promise<{ visited: string[]; last: Response; jar: CookieJar }> {
  const visited: string[] = [];
  let at = url;
  for (let hop = 0; hop < 20; hop++) {
    visited.push(at);
    const response = await fetch(at, { redirect: 'manual', headers: { cookie: jar.header(at) } });
    jar.store(at, response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { visited, last: response, jar };
    await response.arrayBuffer();
    at = new URL(location, at).toString();
  }
  throw new Error(`more than 20 redirects from ${url}: ${visited.join(' → ')}`);
}
