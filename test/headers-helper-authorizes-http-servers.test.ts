/**
 * A server's `headersHelper`: a real shell command in a temp dir prints the headers; it runs
 * before the first connect (with the server's env), again when the server answers 401, and its
 * failures name the server and the exit status without ever showing what it printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HeadersHelperError } from '../src/manager/servers/headers-helper-error.js';
import { headersHelperHook, runHeadersHelper } from '../src/manager/servers/headers-helper.js';
import { McpClient } from '../src/client/mcp-client.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { toManagedServer } from '../src/manager/config/server-entry.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { startHeaderProtectedServer, type HeaderProtectedServer } from './support/header-protected-server.js';
import {
  type HttpFixture,
  httpSseServer,
  json,
  legacyServer,
  rpcError,
  startHttpFixture,
} from './support/http-fixture.js';
import { eventually, waitUntilGone } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

const tmp = useTempDir('mcpwire-helper-');
let server: HeaderProtectedServer | undefined;
let manager: McpManager | undefined;
let other: HttpFixture | undefined;

forgetHttpRoutesAfterEach();
afterEach(
  async () =>
    void ([manager, server, other] = await endAll([manager, 'disconnectAll'], [server, 'close'], [other, 'close'])),
);

/** A helper script that counts its runs and prints the token file's contents as `format`. */
function writeHelper(format: 'json' | 'lines'): string {
  const print =
    format === 'json'
      ? `printf '{"Authorization": "Bearer %s"}' "$(cat "$HELPER_DIR/token")"`
      : `printf 'Authorization: Bearer %s\\nX-Team: tools\\nX-Server: %s %s\\n' "$(cat "$HELPER_DIR/token")" "$MCPWIRE_SERVER_NAME" "$MCPWIRE_SERVER_URL"`;
  writeFileSync(path.join(tmp.dir, 'helper.sh'), `echo run >> "$HELPER_DIR/runs"\n${print}\n`);
  return `sh ${JSON.stringify(path.join(tmp.dir, 'helper.sh'))}`;
}

function runs(): number {
  try {
    return readFileSync(path.join(tmp.dir, 'runs'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

function spec(url: string, headersHelper: string, extra: Partial<ManagedServer> = {}): ManagedServer {
  return {
    name: 'tracker',
    transport: 'http',
    url,
    headersHelper,
    env: { HELPER_DIR: tmp.dir },
    restart: false,
    ...extra,
  };
}

describe('headersHelper', () => {
  it('is a known field of a config file entry', () => {
    const warnings: string[] = [];
    const server = toManagedServer(
      'tracker',
      { url: 'https://example.test/mcp', headersHelper: 'get-token --json' },
      { file: 'mcp.json', scope: 'user' },
      warnings,
      new Set(),
    );
    expect(server.headersHelper).toBe('get-token --json');
    expect(warnings).toEqual([]);
  });

  it('runs before the first connect with the server env, and its JSON headers authorize the server', async () => {
    writeFileSync(path.join(tmp.dir, 'token'), 'first-token-1111');
    server = await startHeaderProtectedServer('Bearer first-token-1111');
    manager = McpManager.create({ servers: [spec(server.url, writeHelper('json'))] });
    await manager.connect('tracker');
    const result = await manager.callTool('mcp__tracker__echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    expect(server.refused).toBe(0);
    expect(runs()).toBe(1);
  });

  it('accepts "Name: value" lines, and is told the server name and URL', async () => {
    writeFileSync(path.join(tmp.dir, 'token'), 'line-token-2222');
    server = await startHeaderProtectedServer('Bearer line-token-2222');
    manager = McpManager.create({ servers: [spec(server.url, writeHelper('lines'))] });
    await manager.connect('tracker');
    await manager.callTool('mcp__tracker__echo', { text: 'hi' });
    expect(server.requests.every((r) => r.headers['x-team'] === 'tools')).toBe(true);
    expect(server.requests[0]!.headers['x-server']).toBe(`tracker ${server.url}`);
  });

  it('is run again when the server answers 401, and the refused call goes again with the new headers', async () => {
    writeFileSync(path.join(tmp.dir, 'token'), 'old-token-3333');
    server = await startHeaderProtectedServer('Bearer old-token-3333');
    manager = McpManager.create({ servers: [spec(server.url, writeHelper('json'))] });
    await manager.connect('tracker');
    expect(runs()).toBe(1);
    // The token rotates: the server takes only the new one, the helper now prints it.
    writeFileSync(path.join(tmp.dir, 'token'), 'new-token-4444');
    server.accepted = 'Bearer new-token-4444';
    const result = await manager.callTool('mcp__tracker__echo', { text: 'again' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:again' }]);
    expect(server.refused).toBe(1);
    expect(runs()).toBe(2);
    expect(manager.getStatus().servers[0]!.status).toBe('connected');
  });

  it('over HTTP+SSE, a refused stream is opened again with what the helper prints on its next run', async () => {
    // The first run prints a stale token, later runs the fresh one.
    writeFileSync(
      path.join(tmp.dir, 'helper.sh'),
      'echo run >> "$HELPER_DIR/runs"\nif [ "$(wc -l < "$HELPER_DIR/runs")" -gt 1 ]; then echo "Authorization: Bearer fresh-8888"; else echo "Authorization: Bearer stale-8888"; fi\n',
    );
    let refusedGets = 0;
    const sseServer = httpSseServer({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
    other = await startHttpFixture((seen, res) => {
      if (seen.method === 'GET' && seen.headers.authorization !== 'Bearer fresh-8888') {
        refusedGets++;
        return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      }
      return false;
    }, sseServer);
    manager = McpManager.create({
      servers: [spec(other.url, `sh ${JSON.stringify(path.join(tmp.dir, 'helper.sh'))}`, { transport: 'sse' })],
    });
    await manager.connect('tracker');
    expect(refusedGets).toBe(1);
    expect(runs()).toBe(2);
    expect(manager.getStatus().servers[0]).toMatchObject({ status: 'connected', toolCount: 1 });
    for (const stream of sseServer.streams) stream.end();
  });

  it('keeps what it printed out of what the manager hands on when the server echoes it in an error', async () => {
    writeFileSync(path.join(tmp.dir, 'token'), 'whoami-token-9999');
    // A server that answers a tool call with an error quoting the credential it got.
    const mcp = legacyServer();
    other = await startHttpFixture((seen, res, req) => {
      if (seen.rpc === 'tools/call')
        return json(res, rpcError(seen, -32000, `you are ${String(seen.headers.authorization)}`));
      return mcp(seen, res, req);
    });
    const lines: string[] = [];
    manager = McpManager.create({
      servers: [spec(other.url, writeHelper('json'))],
      logger: (line) => lines.push(line),
    });
    await manager.connect('tracker');
    const error = await manager.callTool('mcp__tracker__echo', { text: 'who' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVER_ERROR' });
    const shown = [
      (error as Error).message,
      (error as { rpcMessage?: string }).rpcMessage,
      JSON.stringify(error),
      ...lines,
    ].join('\n');
    expect(shown).toContain('you are ***');
    expect(shown).not.toContain('whoami-token-9999');
  });

  it('keeps what it printed out of the errors even when the server echoes it', async () => {
    writeFileSync(path.join(tmp.dir, 'token'), 'echoed-token-5555');
    server = await startHeaderProtectedServer('Bearer something-else');
    const lines: string[] = [];
    manager = McpManager.create({
      servers: [spec(server.url, writeHelper('json'))],
      logger: (line) => lines.push(line),
    });
    const error = await manager.connect('tracker').catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('AUTH_REQUIRED');
    // Refused, the helper ran again and the request went once more.
    expect(runs()).toBe(2);
    expect(server.refused).toBe(2);
    const shown = [JSON.stringify(error), (error as Error).message, JSON.stringify(manager.getStatus()), ...lines].join(
      '\n',
    );
    expect(shown).toContain('not accepted: ***');
    expect(shown).not.toContain('echoed-token-5555');
  });

  it('failing is an error naming the server and the exit status, without its output', async () => {
    writeFileSync(
      path.join(tmp.dir, 'fail.sh'),
      'echo "{\\"Authorization\\": \\"Bearer stdout-secret\\"}"\necho stderr-secret >&2\nexit 3\n',
    );
    server = await startHeaderProtectedServer('Bearer never');
    manager = McpManager.create({ servers: [spec(server.url, `sh ${JSON.stringify(path.join(tmp.dir, 'fail.sh'))}`)] });
    const error = await manager.connect('tracker').catch((e: unknown) => e);
    // The helper runs before the first request: its error is the connect's.
    expect(error).toBeInstanceOf(HeadersHelperError);
    expect(error).toMatchObject({ code: 'AUTH_REQUIRED', exitCode: 3, server: 'tracker' });
    expect((error as Error).message).toBe('server "tracker": the headersHelper exited with status 3');
    const shown = [JSON.stringify(error), JSON.stringify(manager.getStatus())].join('\n');
    expect(shown).not.toMatch(/stdout-secret|stderr-secret/);
    // Nothing was sent without the headers.
    expect(server.requests).toHaveLength(0);
  });

  it('printing something that is not headers is an error that does not quote it', async () => {
    writeFileSync(path.join(tmp.dir, 'junk.sh'), 'echo "just-a-bare-token-6666"\n');
    const error = await runHeadersHelper({
      name: 'tracker',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headersHelper: `sh ${JSON.stringify(path.join(tmp.dir, 'junk.sh'))}`,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeadersHelperError);
    expect((error as Error).message).toBe(
      'server "tracker": the headersHelper exited with status 0 but printed line 1 that is not "Name: value"',
    );
    expect(JSON.stringify(error)).not.toContain('6666');
  });

  it('running past its time bound is killed with everything it started, and says so', async () => {
    // The shell starts a child that would outlive it; its pid is written first.
    writeFileSync(path.join(tmp.dir, 'hang.sh'), `sleep 60 & echo $! > "$HELPER_DIR/child"\nwait\n`);
    const started = Date.now();
    const error = await runHeadersHelper(
      {
        name: 'tracker',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        env: { HELPER_DIR: tmp.dir },
        headersHelper: `sh ${JSON.stringify(path.join(tmp.dir, 'hang.sh'))}`,
      },
      { timeoutMs: 1_500 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeadersHelperError);
    expect(error).toMatchObject({ code: 'AUTH_REQUIRED', timeoutMs: 1_500 });
    expect((error as Error).message).toBe('server "tracker": the headersHelper did not finish within 1500 ms (killed)');
    expect(Date.now() - started).toBeLessThan(30_000);
    const child = await eventually(() => {
      try {
        return Number(readFileSync(path.join(tmp.dir, 'child'), 'utf8').trim()) || undefined;
      } catch {
        return undefined;
      }
    });
    expect(await waitUntilGone(child)).toBe(true);
  });
});

describe('a headersHelper that hangs', () => {
  /** A helper that starts a child which would outlive it, writes the child's pid, and waits. */
  function hangingHelper(): string {
    writeFileSync(path.join(tmp.dir, 'hang.sh'), `sleep 60 & echo $! > "$HELPER_DIR/child"\nwait\n`);
    return `sh ${JSON.stringify(path.join(tmp.dir, 'hang.sh'))}`;
  }

  async function childPid(): Promise<number> {
    return eventually(() => {
      try {
        return Number(readFileSync(path.join(tmp.dir, 'child'), 'utf8').trim()) || undefined;
      } catch {
        return undefined;
      }
    });
  }

  it('is killed with what it started when the connect times out waiting for it', async () => {
    server = await startHeaderProtectedServer('Bearer never');
    manager = McpManager.create({ servers: [spec(server.url, hangingHelper(), { startupTimeoutMs: 1_000 })] });
    const error = await manager.connect('tracker').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'tracker' });
    // Well within the helper's own 30 s bound: the abandoned run was killed.
    expect(await waitUntilGone(await childPid(), 10_000)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('is killed with what it started when the caller aborts the connect', async () => {
    server = await startHeaderProtectedServer('Bearer never');
    const controller = new AbortController();
    const connecting = McpClient.connect(
      { url: server.url, authorize: headersHelperHook(spec(server.url, hangingHelper())) },
      { name: 'tracker', signal: controller.signal },
    ).catch((e: unknown) => e);
    const pid = await childPid();
    controller.abort();
    expect(await connecting).toMatchObject({ code: 'CANCELLED' });
    expect(await waitUntilGone(pid, 10_000)).toBe(true);
  });
});
