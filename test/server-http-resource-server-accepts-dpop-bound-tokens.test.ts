/**
 * The kit's resource server and DPoP-bound access tokens (RFC 9449), with real parts: a kit
 * behind `jwtBearer` on 127.0.0.1:0 whose keys come from a JWKS served by a `node:http` server in
 * the test, access tokens bound to a key (`cnf.jkt`) and proofs signed with `jose` here. A good
 * proof is accepted; a proof for another method, URL or token, signed by another key, too old,
 * from the future or replayed is refused `invalid_dpop_proof`; a bound token shown as `Bearer`
 * is refused `invalid_token`; with nonces on, a proof without one is challenged
 * `use_dpop_nonce` and accepted with it, and nonces rotate; two handlers sharing a replay cache
 * and a nonce secret (two nodes) refuse a proof the other accepted; a replay cache whose store is
 * down refuses (500) rather than let a proof through. Every `WWW-Authenticate` is checked whole.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  jwtBearer,
  McpServer,
  MemoryReplayCache,
  type AuthInfo,
  type DpopOptions,
  type HttpAuthOptions,
} from '../src/server/index.js';
import { DpopNonces } from '../src/server/http/auth/dpop-nonces.js';
import { clientKey, DPOP_ISSUER, startKeyServer, type KeyServer } from './support/dpop-keys.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { registerWhoamiTool } from './support/kit-tools.js';
import { header, modernRequest } from './support/kit-wire.js';
import { eventually } from './support/wait.js';

const ISSUER = DPOP_ISSUER;
const ALGS = 'RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 ES512 EdDSA Ed25519';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

interface Answer {
  status: number;
  challenge: string | null;
  nonce: string | null;
  body: string;
}

/** A raw modern `tools/call whoami` POST with the given `authorization` and `dpop` headers. */
async function call(url: string, headers: { authorization?: string; dpop?: string }): Promise<Answer> {
  const answer = await modernRequest(
    url,
    'tools/call',
    { name: 'whoami', arguments: {} },
    { clientInfo: { name: 'raw', version: '1' }, headers },
  );
  return {
    status: answer.status,
    challenge: header(answer, 'www-authenticate'),
    nonce: header(answer, 'dpop-nonce'),
    body: answer.text,
  };
}

/** What the tool saw, one entry per run. */
type Seen = Array<AuthInfo | undefined>;

function whoamiServer(seen: Seen): McpServer {
  const server = new McpServer({ name: 'dpop-kit', version: '1.0.0', logger: () => undefined });
  registerWhoamiTool(server, seen);
  open.push({ close: () => server.close() });
  return server;
}

/** A kit protected by `jwtBearer` on `keys`, taking DPoP tokens with `dpop` (`resource` defaults to its own URL). */
async function dpopKit(
  keys: KeyServer,
  dpop: DpopOptions | undefined,
  options: { resource?: string; seen?: Seen } = {},
): Promise<KitHttp & { metadataUrl: string }> {
  const kit = await listenKitAt(whoamiServer(options.seen ?? []), (url) => ({
    auth: {
      resource: options.resource ?? url,
      authorizationServers: [ISSUER],
      verifyToken: jwtBearer({ issuer: ISSUER, jwksUrl: keys.jwksUrl }),
      ...(dpop ? { dpop } : {}),
    } satisfies HttpAuthOptions,
  }));
  open.push(kit);
  const resource = new URL(options.resource ?? kit.url);
  return Object.assign(kit, {
    metadataUrl: new URL(`/.well-known/oauth-protected-resource${resource.pathname}`, resource.origin).href,
  });
}

const dpopAuthorization = (token: string): string => `DPoP ${token}`;

describe('DPoP-bound tokens at the resource server', () => {
  it('a bound token with a good proof is accepted, and the tool sees who it is', async () => {
    const keys = await startKeyServer();
    const seen: Seen = [];
    const kit = await dpopKit(keys, {}, { seen });
    const key = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    const answer = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: kit.url, token }),
    });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.nonce).toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ subject: 'alice', scopes: ['mcp:tools'], claims: { cnf: { jkt: key.jkt } } });
  });

  it('a proof for another method, URL or token, by another key, of another type, too old or from the future is 401 invalid_dpop_proof', async () => {
    const keys = await startKeyServer();
    const seen: Seen = [];
    const kit = await dpopKit(keys, {}, { seen });
    const key = await clientKey();
    const other = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    const now = Math.floor(Date.now() / 1000);
    const challenge = `DPoP resource_metadata="${kit.metadataUrl}", algs="${ALGS}", error="invalid_dpop_proof"`;
    const cases: Array<[string, string | undefined, string]> = [
      ['no proof', undefined, 'a DPoP proof header is required'],
      ['another method', await key.proof({ htm: 'GET', htu: kit.url, token }), "htm is not this request's method"],
      ['another URL', await key.proof({ htu: `${kit.url}/elsewhere`, token }), "htu is not this resource's URL"],
      ['another token', await key.proof({ htu: kit.url, token: `${token}x` }), 'ath is not the hash of this token'],
      ['another key', await other.proof({ htu: kit.url, token }), 'not signed with the key the token is bound to'],
      ['another type', await key.proof({ htu: kit.url, token, typ: 'JWT' }), 'is not of type dpop+jwt'],
      ['too old', await key.proof({ htu: kit.url, token, iat: now - 600 }), 'is too old'],
      ['from the future', await key.proof({ htu: kit.url, token, iat: now + 600 }), 'is issued in the future'],
      ['not a JWT', 'a.b.c', 'is not a valid JWT'],
    ];
    for (const [name, proof, reason] of cases) {
      const answer = await call(kit.url, {
        authorization: dpopAuthorization(token),
        ...(proof === undefined ? {} : { dpop: proof }),
      });
      expect(answer.status, name).toBe(401);
      expect(answer.challenge, name).toBe(challenge);
      expect(answer.body, name).toContain(reason);
      expect(answer.body, name).not.toContain(token);
    }
    expect(seen).toEqual([]);
    // A query on the proof's htu is not part of the comparison (RFC 9449 §4.3).
    const answer = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: `${kit.url}?page=2#top`, token }),
    });
    expect(answer.status, answer.body).toBe(200);
  });

  it('a replayed proof is refused, and so is a bound token shown as Bearer and an unbound one shown as DPoP', async () => {
    const keys = await startKeyServer();
    const kit = await dpopKit(keys, {});
    const key = await clientKey();
    const bound = await keys.token(kit.url, key.jkt);
    const proof = await key.proof({ htu: kit.url, token: bound });
    expect((await call(kit.url, { authorization: dpopAuthorization(bound), dpop: proof })).status).toBe(200);
    const replay = await call(kit.url, { authorization: dpopAuthorization(bound), dpop: proof });
    expect(replay.status).toBe(401);
    expect(replay.challenge).toBe(
      `DPoP resource_metadata="${kit.metadataUrl}", algs="${ALGS}", error="invalid_dpop_proof"`,
    );
    expect(replay.body).toContain('has been used before');

    const asBearer = await call(kit.url, { authorization: `Bearer ${bound}` });
    expect(asBearer.status).toBe(401);
    expect(asBearer.challenge).toBe(`Bearer resource_metadata="${kit.metadataUrl}", error="invalid_token"`);
    expect(asBearer.body).toContain('the token is DPoP-bound');

    const unbound = await keys.token(kit.url);
    const asDpop = await call(kit.url, {
      authorization: dpopAuthorization(unbound),
      dpop: await key.proof({ htu: kit.url, token: unbound }),
    });
    expect(asDpop.status).toBe(401);
    expect(asDpop.challenge).toBe(`DPoP resource_metadata="${kit.metadataUrl}", algs="${ALGS}", error="invalid_token"`);
    expect(asDpop.body).toContain('not bound to a DPoP key');
    // The unbound token is still good as a bearer token when DPoP is not required.
    expect((await call(kit.url, { authorization: `Bearer ${unbound}` })).status).toBe(200);
  });

  it('a bound token shown as Bearer is refused even when the handler takes no DPoP', async () => {
    const keys = await startKeyServer();
    const kit = await dpopKit(keys, undefined);
    const key = await clientKey();
    const answer = await call(kit.url, { authorization: `Bearer ${await keys.token(kit.url, key.jkt)}` });
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer resource_metadata="${kit.metadataUrl}", error="invalid_token"`);
    const dpopScheme = await call(kit.url, { authorization: `DPoP ${await keys.token(kit.url, key.jkt)}` });
    expect(dpopScheme.status).toBe(401);
    expect(dpopScheme.challenge).toBe(`Bearer resource_metadata="${kit.metadataUrl}"`);
  });

  it('without a token: both schemes are offered, or DPoP alone when required; the metadata says which', async () => {
    const keys = await startKeyServer();
    const either = await dpopKit(keys, { algorithms: ['ES256'] });
    const bare = await call(either.url, {});
    expect(bare.status).toBe(401);
    expect(bare.challenge).toBe(
      `Bearer resource_metadata="${either.metadataUrl}", DPoP resource_metadata="${either.metadataUrl}", algs="ES256"`,
    );
    expect(await (await fetch(either.metadataUrl)).json()).toEqual({
      resource: either.url,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
      dpop_signing_alg_values_supported: ['ES256'],
      dpop_bound_access_tokens_required: false,
    });

    const only = await dpopKit(keys, { required: true, algorithms: ['ES256', 'EdDSA'] });
    const none = await call(only.url, {});
    expect(none.status).toBe(401);
    expect(none.challenge).toBe(`DPoP resource_metadata="${only.metadataUrl}", algs="ES256 EdDSA"`);
    const bearer = await call(only.url, { authorization: `Bearer ${await keys.token(only.url)}` });
    expect(bearer.status).toBe(401);
    expect(bearer.challenge).toBe(
      `DPoP resource_metadata="${only.metadataUrl}", algs="ES256 EdDSA", error="invalid_token"`,
    );
    expect(bearer.body).toContain('takes only DPoP-bound tokens');
    expect(await (await fetch(only.metadataUrl)).json()).toMatchObject({
      dpop_signing_alg_values_supported: ['ES256', 'EdDSA'],
      dpop_bound_access_tokens_required: true,
    });
  });

  it('with nonces: a proof without one is challenged use_dpop_nonce with a fresh nonce, and accepted with it', async () => {
    const keys = await startKeyServer();
    const kit = await dpopKit(keys, { nonce: true });
    const key = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    const challenged = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: kit.url, token }),
    });
    expect(challenged.status).toBe(401);
    expect(challenged.challenge).toBe(
      `DPoP resource_metadata="${kit.metadataUrl}", algs="${ALGS}", error="use_dpop_nonce"`,
    );
    const nonce = challenged.nonce!;
    expect(nonce).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    const forged = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: kit.url, token, nonce: `${nonce.split('.')[0]}.${'A'.repeat(43)}` }),
    });
    expect(forged.status).toBe(401);
    expect(forged.challenge).toMatch(/error="use_dpop_nonce"$/);
    const accepted = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: kit.url, token, nonce }),
    });
    expect(accepted.status, accepted.body).toBe(200);
  });

  it('nonces rotate: a response to a proof whose nonce is about to expire carries the next one, which is accepted', async () => {
    const keys = await startKeyServer();
    const kit = await dpopKit(keys, { nonce: { lifetimeSec: 2 } });
    const key = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    const send = async (nonce?: string): Promise<Answer> =>
      call(kit.url, { authorization: dpopAuthorization(token), dpop: await key.proof({ htu: kit.url, token, nonce }) });
    let nonce = (await send()).nonce!;
    // Poll until a window ends: a proof with the previous window's nonce is accepted and answered with the next one.
    // (A try so slow that the nonce expired meanwhile gets use_dpop_nonce and a fresh nonce: polling goes on with it.)
    const next = await eventually(
      async () => {
        const answer = await send(nonce);
        if (answer.status === 401) {
          expect(answer.challenge).toMatch(/error="use_dpop_nonce"$/);
          nonce = answer.nonce!;
          return undefined;
        }
        expect(answer.status, answer.body).toBe(200);
        return answer.nonce ?? undefined;
      },
      { timeoutMs: 30_000, what: 'a response carrying the next DPoP nonce' },
    );
    expect(next).not.toBe(nonce);
    const withNext = await send(next);
    expect(withNext.status, withNext.body).toBe(200);
  });

  it('two handlers sharing a replay cache and a nonce secret (two nodes) take each other’s nonces and refuse each other’s replays', async () => {
    const keys = await startKeyServer();
    const replayCache = new MemoryReplayCache();
    const dpop: DpopOptions = { replayCache, nonce: { secret: 'a shared secret of at least 32 bytes!' } };
    const first = await dpopKit(keys, dpop);
    // The second node serves the same resource (behind one load balancer): the proofs name its URL.
    const second = await dpopKit(keys, dpop, { resource: first.url });
    const key = await clientKey();
    const token = await keys.token(first.url, key.jkt);
    const nonce = (
      await call(first.url, {
        authorization: dpopAuthorization(token),
        dpop: await key.proof({ htu: first.url, token }),
      })
    ).nonce!;
    const proof = await key.proof({ htu: first.url, token, nonce });
    const onSecond = await call(second.url, { authorization: dpopAuthorization(token), dpop: proof });
    expect(onSecond.status, onSecond.body).toBe(200);
    const replayedOnFirst = await call(first.url, { authorization: dpopAuthorization(token), dpop: proof });
    expect(replayedOnFirst.status).toBe(401);
    expect(replayedOnFirst.body).toContain('has been used before');
    expect(replayCache.size).toBe(1);
  });
  it('a replay cache that cannot record the proof (its store is down) answers 500, never lets the request through', async () => {
    const keys = await startKeyServer();
    const seen: Seen = [];
    const down = { seen: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) };
    const kit = await dpopKit(keys, { replayCache: down }, { seen });
    const key = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    const answer = await call(kit.url, {
      authorization: dpopAuthorization(token),
      dpop: await key.proof({ htu: kit.url, token }),
    });
    expect(answer.status).toBe(500);
    expect(answer.challenge).toBeNull();
    expect(answer.body).toContain('the access token could not be checked');
    expect(seen).toEqual([]);
  });
});

describe('the DPoP parts on their own', () => {
  it('nonces rotate: fresh in their window, stale but accepted in the next, refused after; another secret never takes them', async () => {
    const lifetimeSec = 60;
    const nonces = new DpopNonces({ secret: 'x'.repeat(32), lifetimeSec });
    const t = 1_800_000_000_000;
    const nonce = await nonces.current(t);
    expect(await nonces.check(nonce, t)).toBe('fresh');
    expect(await nonces.check(nonce, t + lifetimeSec * 1000)).toBe('stale');
    expect(await nonces.current(t + lifetimeSec * 1000)).not.toBe(nonce);
    expect(await nonces.check(nonce, t + 2 * lifetimeSec * 1000)).toBe('invalid');
    expect(await new DpopNonces({ secret: 'y'.repeat(32), lifetimeSec }).check(nonce, t)).toBe('invalid');
    expect(await nonces.check(undefined, t)).toBe('invalid');
    expect(() => new DpopNonces({ secret: 'short' })).toThrow(/at least 32 bytes/);
  });

  it('a nonce is its window and the HMAC-SHA256 of it under the secret, so nodes of another build or runtime take it', async () => {
    const lifetimeSec = 60;
    const t = 1_800_000_000_000;
    const window = Math.floor(t / (lifetimeSec * 1000));
    const cases: Array<{ secret: string | Uint8Array; key: Buffer }> = [
      { secret: 'x'.repeat(32), key: Buffer.from('x'.repeat(32)) },
      { secret: 'é'.repeat(32), key: Buffer.from('é'.repeat(32), 'utf8') },
      { secret: new Uint8Array(40).fill(7), key: Buffer.alloc(40, 7) },
    ];
    for (const { secret, key } of cases) {
      const nonces = new DpopNonces({ secret, lifetimeSec });
      const mac = (w: number): string =>
        createHmac('sha256', key).update(`mcpwire dpop nonce ${w}`).digest('base64url');
      expect(await nonces.current(t)).toBe(`${window.toString(36)}.${mac(window)}`);
      expect(await nonces.check(`${(window - 1).toString(36)}.${mac(window - 1)}`, t)).toBe('stale');
      // The same MAC spelled with other spare bits in its last character is not the nonce issued.
      const issued = mac(window);
      const last = 'AEIMQUYcgkosw048'.indexOf(issued.at(-1)!);
      const respelled = issued.slice(0, -1) + 'BFJNRVZdhlptx159'[last]!;
      expect(await nonces.check(`${window.toString(36)}.${respelled}`, t)).toBe('invalid');
    }
  });

  it('the memory replay cache is bounded: expired keys make room, and a full cache refuses rather than forgets', async () => {
    const cache = new MemoryReplayCache({ maxEntries: 2 });
    const later = Date.now() + 60_000;
    expect(await cache.seen('a', later)).toBe(false);
    expect(await cache.seen('a', later)).toBe(true);
    expect(await cache.seen('old', Date.now() - 1)).toBe(false);
    // 'old' has expired: it makes room for 'b'.
    expect(await cache.seen('b', later)).toBe(false);
    expect(cache.size).toBe(2);
    await expect(cache.seen('c', later)).rejects.toThrow(/replay cache is full/);
    expect(await cache.seen('b', later)).toBe(true);
    expect(() => new MemoryReplayCache({ maxEntries: 0 })).toThrow(/positive integer/);
  });

  it('auth.dpop options are checked when the handler is made', () => {
    const server = new McpServer({ name: 'options', version: '1', logger: () => undefined });
    const auth = (dpop: unknown): HttpAuthOptions => ({
      resource: 'https://mcp.example/mcp',
      authorizationServers: [ISSUER],
      verifyToken: async () => ({ scopes: [] }),
      dpop: dpop as DpopOptions,
    });
    expect(() => createHttpHandler(server, { auth: auth({ required: true, nonce: true }) })).not.toThrow();
    const bad: Array<[unknown, RegExp]> = [
      [{ nonces: true }, /unknown HTTP handler auth.dpop option "nonces"/],
      [{ algorithms: ['HS256'] }, /asymmetric algorithms only/],
      [{ maxAgeSec: -1 }, /"maxAgeSec" must be a number of seconds/],
      [{ nonce: { secret: 'short' } }, /at least 32 bytes/],
      [{ replayCache: {} }, /must have a seen\(key, expiresAt\) method/],
    ];
    for (const [dpop, message] of bad) expect(() => createHttpHandler(server, { auth: auth(dpop) })).toThrow(message);
  });
});
