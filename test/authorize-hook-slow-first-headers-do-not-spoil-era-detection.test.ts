/**
 * A connect's `authorize` hook (a headersHelper) is asked for its first headers before the first
 * request: a slow one spends the connect's time, not the era probe's, so a modern server is
 * still found modern (a probe that timed out would fall back to the legacy handshake).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { headersHelperHook } from '../src/manager/servers/headers-helper.js';
import { McpServer } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp } from './support/kit-http.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  PROCESS_HTTP_ROUTES.clear();
});

describe('a slow authorize hook', () => {
  it('gives its headers before the probe starts: a modern server is detected modern, the helper runs once', async () => {
    const server = new McpServer({ name: 'kit', version: '1.0.0', logger: () => undefined });
    server.registerTool({
      name: 'ping',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'pong' }] }),
    });
    const kit = await startKitHttp(server);
    dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-slow-helper-'));
    // Slower than the probe timeout below (3 s against 1.5 s): the helper's own pace, not a wait of
    // the test. The probe's budget is generous so a loopback probe on a busy machine still fits.
    writeFileSync(
      path.join(dir, 'slow.sh'),
      'echo run >> "$HELPER_DIR/runs"\nsleep 3\necho "X-Token: slow-but-sure"\n',
    );
    const hook = headersHelperHook({
      name: 'kit',
      transport: 'http',
      url: kit.url,
      env: { HELPER_DIR: dir },
      headersHelper: `sh ${JSON.stringify(path.join(dir, 'slow.sh'))}`,
    });
    const client = await connectClient(
      { url: kit.url, authorize: hook },
      { name: 'kit', probeTimeoutMs: 1_500, connectTimeoutMs: 20_000 },
    );
    expect(client.era).toBe('modern');
    expect(readFileSync(path.join(dir, 'runs'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(await client.callTool('ping', {})).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
  });
});
