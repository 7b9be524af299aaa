/**
 * `jwtBearer` reaches the authorization server (its metadata, its keys) through a dispatcher of
 * its own, so the HTTP handler's `close()` leaves no socket to it behind. The key server is a real
 * `node:http` listener in the test that asks clients to keep connections for ten minutes
 * (`Keep-Alive: timeout=600`): a fetch through a shared dispatcher would keep its socket that
 * long; after `close()` the listener sees every connection end.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as jose from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { jwtBearer, McpServer } from '../src/server/index.js';
import { listenKitAt } from './support/kit-http.js';
import { within } from './support/wait.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

interface KeyServer {
  issuer: string;
  /** Paths requested, in order. */
  paths: string[];
  /** Connections open now. */
  connections(): number;
  /** Resolves when no connection is open (at once when none is). */
  drained(): Promise<void>;
  sign(audience: string): Promise<string>;
}

/** An authorization server's metadata (RFC 8414) and JWKS on a listener that keeps idle connections for 10 min. */
async function startKeyServer(): Promise<KeyServer> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] };
  let issuer = '';
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    const body = req.url === '/.well-known/oauth-authorization-server' ? { issuer, jwks_uri: `${issuer}/jwks` } : jwks;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.keepAliveTimeout = 600_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return {
    issuer,
    paths,
    connections: () => sockets.size,
    drained: () =>
      sockets.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const wake = (): void => {
              waiters.delete(wake);
              resolve();
            };
            waiters.add(wake);
          }),
    sign: (audience) =>
      new jose.SignJWT({ scope: 'mcp:tools' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(issuer)
        .setSubject('alice')
        .setAudience(audience)
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}

describe("jwtBearer's connections to the key server", () => {
  it("are ended by the handler's close(): metadata and keys fetched, then no socket left open", async () => {
    const keys = await startKeyServer();
    const server = new McpServer({ name: 'keys', version: '1', logger: () => undefined });
    open.push({ close: () => server.close() });
    server.registerTool({ name: 'ping', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    const kit = await listenKitAt(server, (url) => ({
      sessions: false,
      auth: { resource: url, authorizationServers: [keys.issuer], verifyToken: jwtBearer({ issuer: keys.issuer }) },
    }));
    open.push(kit);
    const response = await fetch(kit.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await keys.sign(kit.url)}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(keys.paths).toEqual(['/.well-known/oauth-authorization-server', '/jwks']);
    // Kept alive, as the key server asked: the verifier will need the keys again.
    expect(keys.connections()).toBeGreaterThan(0);
    await kit.handler.close();
    await within(keys.drained(), { timeoutMs: 15_000, what: "every key server connection's close" });
    expect(keys.connections()).toBe(0);
  });
});
