/**
 * `mcpwire doctor` against real servers, from the built CLI with a home of its own: a good stdio
 * server (the reference server), a missing command, a server that exits at once, loopback HTTP
 * servers of each shape (the kit: 2026-07-28; a legacy Streamable HTTP server; a 2024-11-05
 * HTTP+SSE server), the kit over https with a certificate of openssl's (self-signed, then trusted
 * and about to expire), an OAuth-protected server with a real authorization server and no stored
 * login, a refused port, and a tool list with a broken schema. Each check is a line with its
 * verdict and a fix; `--json` gives the same per server; the exit code is the first failure's.
 * The configured secrets never appear in what it prints. Each run gives its checks 30 s (a loaded
 * machine starts the reference server slowly).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ServerDiagnosis } from '../src/manager/doctor/doctor-types.js';
import { createHttpHandler, McpServer } from '../src/server/index.js';
import { EVERYTHING, runCli } from './support/cli.js';
import { httpSseServer, legacyServer, startHttpFixture } from './support/http-fixture.js';
import { startKitHttp } from './support/kit-http.js';
import { startAuthorizationServer, startProtectedServer } from './support/oauth-servers.js';
import { machineToken, registerMachineClient } from './support/protected-kit.js';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import { serverKey } from '../src/auth/token-store.js';
import { configHomes } from './support/config-homes.js';
import { freePort } from './support/ports.js';

const homes = configHomes('mcpwire-doctor-');
/** A home of the test's own whose user config holds `servers`. */
const homeWith = homes.homeWith;

type Envelope = { ok: boolean; result: { servers: ServerDiagnosis[] } };

function checksOf(run: { json<T>(): T }, server: string): Record<string, string> {
  const found = run.json<Envelope>().result.servers.find((s) => s.server === server);
  if (!found) throw new Error(`no report for ${server}`);
  return Object.fromEntries(found.checks.map((c) => [c.id, c.verdict]));
}

function kitServer(): McpServer {
  const server = new McpServer({ name: 'doctor-kit', version: '1.0.0', logger: () => undefined });
  server.registerTool({
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    handler: () => ({ content: [] }),
  });
  return server;
}

describe('mcpwire doctor', () => {
  it('passes a good stdio server, and fails a missing command and a server that exits at once, with fixes', async () => {
    const env = homeWith({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { API_KEY: 'sekrit-stdio-4242' } },
      missing: { command: 'no-such-mcp-server-command' },
      quits: { command: process.execPath, args: ['-e', "console.error('cannot start: no database'); process.exit(3)"] },
    });
    const text = await runCli(['doctor', '--timeout', '30000'], { env });
    expect(text.stdout).toMatch(/^ {2}ok {4}start +answered initialize in \d+ ms \(mcp-servers\/everything /m);
    expect(text.stdout).toMatch(/^ {2}ok {4}tools +\d+ tool\(s\) listed$/m);
    expect(text.stdout).toMatch(/^ {2}fail {2}command +"no-such-mcp-server-command" is not found on PATH/m);
    expect(text.stdout).toMatch(/fix: install no-such-mcp-server-command, or give its full path in "command"/);
    expect(text.stdout).toMatch(/^ {2}fail {2}start +.*exited with code 3.*cannot start: no database/m);
    expect(text.stdout).toMatch(/fix: run the command yourself to see why: /);
    expect(text.stdout).toContain('3 server(s): ');
    // The first failing server's first failure: the missing command, a server that cannot start (4).
    expect(text.code).toBe(4);
    expect(text.stdout + text.stderr).not.toContain('sekrit-stdio-4242');

    const json = await runCli(['doctor', '--timeout', '30000', '--json'], { env });
    expect(json.code).toBe(4);
    expect(json.json<Envelope>().ok).toBe(false);
    expect(checksOf(json, 'everything')).toMatchObject({
      definition: 'ok',
      command: 'ok',
      start: 'ok',
      revision: 'ok',
      tools: 'ok',
    });
    expect(checksOf(json, 'missing')).toEqual({
      definition: 'ok',
      command: 'fail',
      start: 'skip',
      revision: 'skip',
      tools: 'skip',
      schemas: 'skip',
    });
    const quits = json.json<Envelope>().result.servers.find((s) => s.server === 'quits')!;
    expect(quits.verdict).toBe('fail');
    expect(quits.checks.find((c) => c.id === 'start')).toMatchObject({ verdict: 'fail', kind: 'unreachable' });
  });

  it('checks one server by name and exits 0 when it is fine', async () => {
    const env = homeWith({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      missing: { command: 'no-such-mcp-server-command' },
    });
    const run = await runCli(['doctor', '--timeout', '30000', 'everything', '--json'], { env });
    expect(run.code, run.stdout).toBe(0);
    const servers = run.json<Envelope>().result.servers;
    expect(servers.map((s) => s.server)).toEqual(['everything']);
    expect(servers[0]!.verdict).not.toBe('fail');
    const unknown = await runCli(['doctor', '--timeout', '30000', 'nope'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('server "nope" is not configured (configured: everything, missing)');
  });

  it('tells the HTTP shapes apart: the kit (2026-07-28), legacy Streamable HTTP, HTTP+SSE', async () => {
    const kit = await startKitHttp(kitServer());
    const legacy = await startHttpFixture(legacyServer());
    onTestFinished(() => legacy.close());
    const old = await startHttpFixture(httpSseServer({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
    onTestFinished(() => old.close());
    const env = homeWith({
      modern: { url: kit.url, headers: { 'X-Api-Key': 'sekrit-header-7777' } },
      legacy: { url: legacy.url },
      old: { url: old.url, type: 'sse' },
    });
    const run = await runCli(['doctor', '--timeout', '30000', '--json'], { env });
    expect(run.code, run.stdout).toBe(0);
    const byName = Object.fromEntries(run.json<Envelope>().result.servers.map((s) => [s.server, s]));
    const detail = (server: string, id: string) => byName[server]!.checks.find((c) => c.id === id)!;
    expect(detail('modern', 'http')).toMatchObject({ verdict: 'ok', detail: expect.stringContaining('2026-07-28') });
    expect(detail('modern', 'revision').detail).toContain('modern');
    expect(detail('modern', 'tools').detail).toBe('1 tool(s) listed');
    expect(detail('legacy', 'http')).toMatchObject({
      verdict: 'ok',
      detail: expect.stringContaining('legacy Streamable HTTP'),
    });
    expect(detail('old', 'http')).toMatchObject({ verdict: 'ok', detail: expect.stringContaining('HTTP+SSE') });
    for (const server of ['modern', 'legacy', 'old']) {
      expect(detail(server, 'dns').verdict).toBe('ok');
      expect(detail(server, 'tcp').verdict).toBe('ok');
      expect(detail(server, 'tls')).toMatchObject({ verdict: 'skip', detail: 'plain http (no TLS)' });
      expect(detail(server, 'oauth').verdict).toBe('skip');
    }
    expect(run.stdout).not.toContain('sekrit-header-7777');
  });

  it('finds the OAuth metadata of a protected server and says to log in when no login is stored (exit 3)', async () => {
    const authorization = await startAuthorizationServer();
    onTestFinished(() => authorization.close());
    const protectedServer = await startProtectedServer(authorization.issuer);
    onTestFinished(() => protectedServer.close());
    const env = homeWith({ vault: { url: protectedServer.url } });
    const text = await runCli(['doctor', '--timeout', '30000'], { env });
    expect(text.code, text.stdout).toBe(3);
    expect(text.stdout).toMatch(/^ {2}warn {2}http +answered HTTP 401: it wants authorization/m);
    expect(text.stdout).toMatch(
      new RegExp(
        `^ {2}ok {4}oauth +protected resource metadata at .*oauth-protected-resource/mcp names ${authorization.issuer.replace(/[.]/g, '\\.')}`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(/^ {2}fail {2}login +no login stored for this server$/m);
    expect(text.stdout).toContain('fix: run: mcpwire auth login vault');
    const json = await runCli(['doctor', '--timeout', '30000', 'vault', '--json'], { env });
    expect(checksOf(json, 'vault')).toMatchObject({ oauth: 'ok', login: 'fail', revision: 'skip', tools: 'skip' });
  });

  it('uses a stored login and says until when it holds; an expired one that cannot renew is a failure', async () => {
    const authorization = await startAuthorizationServer();
    onTestFinished(() => authorization.close());
    const protectedServer = await startProtectedServer(authorization.issuer);
    onTestFinished(() => protectedServer.close());
    const machine = await registerMachineClient(authorization.issuer, ['mcp:tools']);
    const token = await machineToken(authorization.issuer, machine, protectedServer.url, ['mcp:tools']);
    const env = homeWith({ vault: { url: protectedServer.url } });
    const store = new FileTokenStore({ dir: path.join(env.HOME!, '.mcpwire/oauth') });
    const key = serverKey(new URL(protectedServer.url));
    const expiresAt = Date.now() + 3_600_000;
    await store.set(key, { tokens: { accessToken: token, tokenType: 'Bearer', expiresAt, scope: 'mcp:tools' } });
    const good = await runCli(['doctor', '--timeout', '30000'], { env });
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toMatch(/^ {2}ok {4}login +logged in until \S+Z \(\d+ min\), scopes mcp:tools$/m);
    expect(good.stdout).toMatch(/^ {2}ok {4}tools +\d+ tool\(s\) listed$/m);
    expect(good.stdout).not.toContain(token);
    await store.set(key, { tokens: { accessToken: token, tokenType: 'Bearer', expiresAt: Date.now() - 60_000 } });
    const expired = await runCli(['doctor', '--timeout', '30000', '--json'], { env });
    expect(expired.code, expired.stdout).toBe(3);
    expect(expired.stdout).not.toContain(token);
    const login = expired.json<Envelope>().result.servers[0]!.checks.find((c) => c.id === 'login');
    expect(login).toMatchObject({
      verdict: 'fail',
      kind: 'auth',
      detail: expect.stringMatching(/^the stored login expired at \S+Z and cannot renew itself$/),
      fix: 'run: mcpwire auth login vault',
    });
  });

  it('fails a refused port at tcp (exit 4) and a broken tool schema at schemas (exit 5)', async () => {
    const port = await freePort();
    const broken = await startHttpFixture(
      legacyServer({
        tools: [
          { name: 'fine', inputSchema: { type: 'object' } },
          { name: 'broken', inputSchema: { type: 'string' } },
        ],
      }),
    );
    onTestFinished(() => broken.close());
    const refused = await runCli(['doctor', '--timeout', '30000', '--json'], {
      env: homeWith({ down: { url: `http://127.0.0.1:${port}/mcp` } }),
    });
    expect(refused.code).toBe(4);
    const down = refused.json<Envelope>().result.servers[0]!;
    expect(down.checks.find((c) => c.id === 'tcp')).toMatchObject({
      verdict: 'fail',
      kind: 'unreachable',
      detail: `nothing listens on 127.0.0.1:${port} (connection refused)`,
      fix: 'start the server, or check the port in "url"',
    });
    const schemas = await runCli(['doctor', '--timeout', '30000'], { env: homeWith({ tools: { url: broken.url } }) });
    expect(schemas.code, schemas.stdout).toBe(5);
    expect(schemas.stdout).toMatch(
      /^ {2}fail {2}schemas +tool "broken": inputSchema is not an object schema with type "object"/m,
    );
  });

  it('takes an ad-hoc target too: --url and -- COMMAND', async () => {
    const kit = await startKitHttp(kitServer());
    const url = await runCli(['doctor', '--timeout', '30000', '--url', kit.url, '--json'], { env: homeWith({}) });
    expect(url.code, url.stdout).toBe(0);
    expect(url.json<Envelope>().result.servers[0]!.server).toBe(new URL(kit.url).host);
    const command = await runCli(
      ['doctor', '--timeout', '30000', '--json', '--', process.execPath, EVERYTHING, 'stdio'],
      {
        env: homeWith({}),
      },
    );
    expect(command.code, command.stdout).toBe(0);
    expect(checksOf(command, command.json<Envelope>().result.servers[0]!.server)).toMatchObject({ start: 'ok' });
  });

  it('checks TLS: a self-signed certificate fails (exit 4); trusted, one about to expire is a warning', async () => {
    const dir = mkdtempSync(path.join(homes.root, 'tls-'));
    // openssl (Debian's) makes a certificate for 127.0.0.1 that expires in 5 days.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '5',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const server = kitServer();
    const handler = createHttpHandler(server, { path: '/mcp' });
    const listener = https.createServer(
      { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) },
      (req, res) => void handler(req, res),
    );
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    onTestFinished(async () => {
      await handler.close({ graceMs: 1_000 });
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await server.close();
    });
    const url = `https://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
    const env = homeWith({ secure: { url } });
    const untrusted = await runCli(['doctor', '--timeout', '30000', '--json'], { env });
    expect(untrusted.code, untrusted.stdout).toBe(4);
    const tls = untrusted.json<Envelope>().result.servers[0]!.checks.find((c) => c.id === 'tls')!;
    expect(tls).toMatchObject({ verdict: 'fail', kind: 'unreachable' });
    expect(tls.detail).toMatch(
      /certificate for 127\.0\.0\.1 by 127\.0\.0\.1, valid until .*: not trusted \(.*SELF_SIGNED/i,
    );
    const trusted = await runCli(['doctor', '--timeout', '30000'], {
      env: { ...env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
    });
    expect(trusted.code, trusted.stdout).toBe(0);
    expect(trusted.stdout).toMatch(/^ {2}warn {2}tls +certificate for 127\.0\.0\.1 .*: expires in [45] day\(s\)$/m);
    expect(trusted.stdout).toMatch(/^ {2}ok {4}http +speaks 2026-07-28 Streamable HTTP/m);
  });
});
