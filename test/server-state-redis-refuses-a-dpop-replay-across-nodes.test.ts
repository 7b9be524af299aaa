/**
 * Two kit nodes protected by `jwtBearer` with DPoP-bound tokens (RFC 9449), each with its own
 * `redisState()` on one real `redis-server` and the replay cache it offers: a proof accepted by
 * one node is refused by the other (`has been used before`), exactly one of two nodes shown one
 * proof at once accepts it, and while Redis is down a proof is refused (500), never let through
 * unrecorded. Keys come from a JWKS on a `node:http` listener here; proofs are signed with `jose`.
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { jwtBearer, McpServer, type HttpAuthOptions } from '../src/server/index.js';
import { redisState } from '../src/server/redis/index.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/wait.js';

const ISSUER = 'https://as.example';

interface KeyServer {
  jwksUrl: string;
  token(audience: string, jkt: string): Promise<string>;
}

async function startKeyServer(): Promise<KeyServer> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'as-key', alg: 'ES256', use: 'sig' }] };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    token: (audience, jkt) =>
      new jose.SignJWT({ scope: 'mcp:tools', client_id: 'app', cnf: { jkt } })
        .setProtectedHeader({ alg: 'ES256', kid: 'as-key', typ: 'at+jwt' })
        .setIssuer(ISSUER)
        .setSubject('alice')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}

/** A client's DPoP key: its thumbprint, and a fresh proof for a POST to `htu` with `token`. */
async function clientKey(): Promise<{ jkt: string; proof(htu: string, token: string): Promise<string> }> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const jwk = await jose.exportJWK(publicKey);
  return {
    jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'),
    proof: (htu, token) =>
      new jose.SignJWT({ htm: 'POST', htu, ath: createHash('sha256').update(token).digest('base64url') })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .setJti(randomUUID())
        .sign(privateKey),
  };
}

/** A modern `tools/call whoami` with a DPoP token and proof; resolves with the status and body. */
async function call(url: string, token: string, proof: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
      authorization: `DPoP ${token}`,
      dpop: proof,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  return { status: response.status, body: await response.text() };
}

describe.skipIf(skipWithoutRedis())('DPoP replay refused across nodes sharing one Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  /** A protected node serving `resource` (the URL proofs name: the first node's, as behind one load balancer). */
  async function node(keys: KeyServer, keyPrefix: string, resource?: string): Promise<KitHttp> {
    const state = await redisState({ url: redis.url, keyPrefix });
    onTestFinished(() => state.close());
    const server = new McpServer({ name: 'dpop-node', version: '1', logger: () => undefined });
    server.registerTool({
      name: 'whoami',
      inputSchema: { type: 'object' },
      handler: (_args, context) => ({ structuredContent: { subject: context.auth?.subject ?? null } }),
    });
    onTestFinished(() => server.close());
    const kit = await listenKitAt(server, (url) => ({
      auth: {
        resource: resource ?? url,
        authorizationServers: [ISSUER],
        verifyToken: jwtBearer({ issuer: ISSUER, jwksUrl: keys.jwksUrl }),
        dpop: { replayCache: state.replayCache },
      } satisfies HttpAuthOptions,
    }));
    onTestFinished(() => kit.close());
    return kit;
  }

  it('refuses on one node a proof the other accepted, and lets exactly one of two nodes take a proof shown to both', async () => {
    const keys = await startKeyServer();
    const prefix = `dpop:${randomUUID()}:`;
    const first = await node(keys, prefix);
    const second = await node(keys, prefix, first.url);
    const key = await clientKey();
    const token = await keys.token(first.url, key.jkt);
    const proof = await key.proof(first.url, token);
    const accepted = await call(second.url, token, proof);
    expect(accepted.status, accepted.body).toBe(200);
    const replayed = await call(first.url, token, proof);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toContain('has been used before');

    const both = await key.proof(first.url, token);
    const answers = await Promise.all([call(first.url, token, both), call(second.url, token, both)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  it('refuses a proof (500) while Redis is down, and accepts fresh ones once it is back', async () => {
    const keys = await startKeyServer();
    const kit = await node(keys, `dpop:${randomUUID()}:`);
    const key = await clientKey();
    const token = await keys.token(kit.url, key.jkt);
    await redis.down();
    try {
      const refused = await call(kit.url, token, await key.proof(kit.url, token));
      expect(refused.status).toBe(500);
      expect(refused.body).toContain('the access token could not be checked');
    } finally {
      await redis.up();
    }
    await until(async () => (await call(kit.url, token, await key.proof(kit.url, token))).status === 200, {
      what: 'a fresh proof accepted once Redis is back',
      timeoutMs: 20_000,
    });
  });
});
