/**
 * A failed HTTP exchange rejects with an `HttpError` whose typed fields say what a program needs
 * to decide — the URL, the status, a 401's parsed `WWW-Authenticate` challenge, whether the server
 * could be reached at all, whether the message may be sent again — and whose `data` stays empty
 * (it is only ever the peer's JSON-RPC `data`). The client's re-send policy reads `resend`, and
 * `mcpwire --json` prints the facts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { HttpError } from '../src/protocol/errors.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { legacyServer, openSse, unauthorized } from './support/http-fixture.js';
import { freePort } from './support/ports.js';
import { useHttpScene } from './support/http-scene.js';
import { failureOf } from './support/failure.js';

const scene = useHttpScene<McpClient>();

describe('HttpError facts', () => {
  it('a refused connection: unreachable, never received (resend "unsent"), naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    await failureOf(McpClient.connect({ url }, { name: 'gone' }), HttpError, {
      code: 'TRANSPORT',
      server: 'gone',
      url,
      unreachable: true,
      resend: 'unsent',
      status: undefined,
      data: undefined,
    });
  });

  it('a stream that breaks after the call went out: resend "if-idempotent", so tools/call is not sent again', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      openSse(res);
      res.end(); // the server got the call; its answer never comes
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'flaky' });
    await failureOf(scene.client.callTool('transfer', {}), HttpError, {
      code: 'TRANSPORT',
      method: 'tools/call',
      url: scene.fixture.url,
      status: undefined,
      unreachable: false,
      resend: 'if-idempotent',
      data: undefined,
    });
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
  });

  it('a failing status: its number and a quote of the body, never re-sent, even for tools/list', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/list') return false;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('  down for\n maintenance ');
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'busy' });
    const kinds: string[] = [];
    scene.client.on('diagnostic', (d) => kinds.push(d.kind));
    await failureOf(scene.client.listTools(), HttpError, {
      code: 'TRANSPORT',
      method: 'tools/list',
      status: 503,
      body: 'down for maintenance',
      resend: 'never',
      unreachable: false,
    });
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
    expect(kinds).not.toContain('resent');
  });
});

describe('mcpwire --json and an HTTP failure', () => {
  beforeAll(() => requireBuiltCli());

  it('a 401 exits 3 and prints the status, the URL and the parsed challenge as fields, with no data', async () => {
    await scene.start((_seen, res) => {
      return unauthorized(
        res,
        'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="tools:read"',
      );
    });
    // OAuth is tried first (its metadata cannot be fetched here); the server's 401 stays the answer's facts.
    // A home of its own: the login store under it is empty and the user's is never read.
    const home = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-401-home-'));
    const run = await runCli(['tools', '--url', scene.fixture.url, '--json'], { env: { HOME: home } }).finally(() =>
      rmSync(home, { recursive: true, force: true }),
    );
    expect(run.code).toBe(3);
    const { error } = run.json<{ error: Record<string, unknown> }>();
    expect(error).toMatchObject({
      code: 'AUTH_REQUIRED',
      exitCode: 3,
      status: 401,
      url: scene.fixture.url,
      unreachable: false,
      resend: 'never',
      challenge: [
        {
          scheme: 'bearer',
          params: { resource_metadata: 'http://127.0.0.1/.well-known/oauth-protected-resource', scope: 'tools:read' },
        },
      ],
    });
    expect(error).not.toHaveProperty('data');
    expect(error.message).toContain('WWW-Authenticate: Bearer resource_metadata=');
    expect(error.oauth).toMatchObject({ step: 'discovery' });
  });
});
