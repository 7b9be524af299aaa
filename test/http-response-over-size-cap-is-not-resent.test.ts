/**
 * A response larger than `maxMessageBytes` is a size-limit error that says so, never a "broken
 * stream": it is not re-sent (the same oversized answer would come back), even for methods
 * without side effects such as `tools/list`.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { SizeLimitError } from '../src/protocol/errors.js';
import { StreamableHttpTransport } from '../src/transport/http/streamable-http.js';
import { json, legacyServer, openSse, result, sse } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';
import { failureOf } from './support/failure.js';

/** The cap: larger than one socket read (64 KiB), so the body passes it after the reader attached. */
const CAP = 256 * 1024;
/** A tools/list result far over the cap. */
const HUGE_TOOLS = {
  tools: [{ name: 'huge', description: 'x'.repeat(4 * 1024 * 1024), inputSchema: { type: 'object' } }],
};

const scene = useHttpScene<McpClient>();

async function connectWithCap(): Promise<{ client: McpClient; diagnostics: string[] }> {
  scene.client = await McpClient.connect(
    new StreamableHttpTransport(scene.fixture.url, { name: 'big', maxMessageBytes: CAP }),
    {
      era: 'legacy',
      name: 'big',
    },
  );
  const diagnostics: string[] = [];
  scene.client.on('diagnostic', (d) => diagnostics.push(d.kind));
  return { client: scene.client, diagnostics };
}

describe('an HTTP response over the size cap', () => {
  it('a JSON body: TRANSPORT naming the size limit, and tools/list is sent exactly once', async () => {
    await scene.start(
      (seen, res) => (seen.rpc === 'tools/list' ? json(res, result(seen, HUGE_TOOLS)) : false),
      legacyServer(),
    );
    const { client, diagnostics } = await connectWithCap();
    const error = await failureOf(client.listTools(), SizeLimitError, {
      code: 'TRANSPORT',
      server: 'big',
      method: 'tools/list',
      limit: CAP,
      option: 'maxMessageBytes',
      url: scene.fixture.url,
      data: undefined,
    });
    expect((error as Error).message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
    expect((error as Error).message).toContain(scene.fixture.url);
    expect((error as Error).message).not.toContain('broke off');
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
    expect(diagnostics).not.toContain('resent');
  });

  it('an SSE response event: TRANSPORT naming the size limit, and tools/list is sent exactly once', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/list') return false;
      openSse(res);
      sse(res, result(seen, HUGE_TOOLS));
      res.end();
      return true;
    }, legacyServer());
    const { client, diagnostics } = await connectWithCap();
    const error = await failureOf(client.listTools(), SizeLimitError, {
      code: 'TRANSPORT',
      method: 'tools/list',
      limit: CAP,
      url: scene.fixture.url,
      data: undefined,
    });
    expect((error as Error).message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
    expect(diagnostics).toContain('oversize');
    expect(diagnostics).not.toContain('resent');
  });
});
