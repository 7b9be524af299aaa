/**
 * `mcpwire doctor` (the built CLI, a home of its own) shows an HTTP server's MCP Server Card: what
 * a kit server's card says when it matches the connection (ok); a card that names another server
 * (a warning with what differs, exit 0: a card is advisory); a card only at an earlier draft's
 * location (`/.well-known/mcp.json`, "legacy", compared too); and no card at all (an informational
 * line, never a failure).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CheckResult, ServerDiagnosis } from '../src/manager/doctor/doctor-types.js';
import { createHttpHandler, McpServer, type HttpHandlerOptions } from '../src/server/index.js';
import { runCli } from './support/cli.js';
import { startKitHttp } from './support/kit-http.js';
import { configHomes } from './support/config-homes.js';
import { freePort } from './support/ports.js';

const homes = configHomes('mcpwire-doctor-card-');
/** A home of the test's own whose user config holds `servers`. */
const homeWith = homes.homeWith;

function weather(name = 'com.example/weather'): McpServer {
  const server = new McpServer({
    name,
    version: '1.2.0',
    description: 'Forecasts for anywhere',
    logger: () => undefined,
  });
  server.registerTool({ name: 'forecast', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
  return server;
}

/** The kit at `/mcp` with an old draft's card at `/.well-known/mcp.json` (and no card of the current draft). */
async function legacyCardServer(card: unknown): Promise<string> {
  const server = weather();
  const handler = createHttpHandler(server, { path: '/mcp', serverCard: false } satisfies HttpHandlerOptions);
  const listener = http.createServer((req, res) => {
    if (req.url === '/.well-known/mcp.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(card));
    } else handler(req, res);
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    await handler.close({ graceMs: 1_000 });
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await server.close();
  });
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
}

type Envelope = { ok: boolean; result: { servers: ServerDiagnosis[] } };

describe('mcpwire doctor and the server card', () => {
  it('shows a matching card, warns on a mismatching one and a legacy one, and notes a missing one', async () => {
    const matching = await startKitHttp(weather());
    const mismatching = await startKitHttp(weather(), { serverCard: { name: 'com.example/forecasts' } });
    const bare = await startKitHttp(weather('doctor-kit'));
    const legacy = await legacyCardServer({
      serverInfo: { name: 'com.example/weather', version: '0.9.0' },
      description: 'Forecasts for anywhere',
    });
    const env = homeWith({
      matching: { url: matching.url },
      mismatching: { url: mismatching.url },
      bare: { url: bare.url },
      legacy: { url: legacy },
    });

    const json = await runCli(['doctor', '--timeout', '30000', '--json'], { env });
    expect(json.code, json.stdout).toBe(0);
    const card = (server: string): CheckResult =>
      json
        .json<Envelope>()
        .result.servers.find((s) => s.server === server)!
        .checks.find((c) => c.id === 'card')!;
    expect(card('matching')).toMatchObject({
      verdict: 'ok',
      detail: `com.example/weather 1.2.0: "Forecasts for anywhere" (${matching.url}/server-card)`,
    });
    expect(card('matching').fix).toBeUndefined();
    expect(card('mismatching')).toMatchObject({
      verdict: 'warn',
      detail: `com.example/forecasts 1.2.0: "Forecasts for anywhere" (${mismatching.url}/server-card)`,
      fix: expect.stringContaining(
        'differs from the server: name: the card says "com.example/forecasts", the server "com.example/weather"',
      ),
    });
    expect(card('bare')).toMatchObject({
      verdict: 'skip',
      detail: expect.stringMatching(
        /^no server card published \(optional; server card at .*\/mcp\/server-card: HTTP 404\)$/,
      ),
    });
    const origin = new URL(legacy).origin;
    expect(card('legacy')).toMatchObject({
      verdict: 'warn',
      detail: `com.example/weather 0.9.0: "Forecasts for anywhere" (legacy location ${origin}/.well-known/mcp.json)`,
      fix: expect.stringContaining('differs from the server: version: the card says "0.9.0", the server "1.2.0"'),
    });
    expect(card('legacy').fix).toContain('published where an earlier draft put it; serve it at /mcp/server-card');
    for (const server of ['matching', 'mismatching', 'bare', 'legacy'])
      expect(json.json<Envelope>().result.servers.find((s) => s.server === server)!.verdict).not.toBe('fail');

    const text = await runCli(['doctor', '--timeout', '30000', 'mismatching'], { env });
    expect(text.code, text.stdout).toBe(0);
    expect(text.stdout).toMatch(/^ {2}warn {2}card +com\.example\/forecasts 1\.2\.0: "Forecasts for anywhere" \(/m);
    expect(text.stdout).toMatch(/fix: differs from the server: name: the card says "com\.example\/forecasts"/);
  });

  it('skips the card when the host cannot be reached', async () => {
    const port = await freePort();
    const run = await runCli(['doctor', '--timeout', '30000', '--json'], {
      env: homeWith({ down: { url: `http://127.0.0.1:${port}/mcp` } }),
    });
    const checks = run.json<Envelope>().result.servers[0]!.checks;
    expect(checks.find((c) => c.id === 'card')).toMatchObject({
      verdict: 'skip',
      detail: 'the host was not reached (tcp)',
    });
  });
});
