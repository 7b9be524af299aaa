/**
 * A connect by URL takes the same message size cap as a stdio connect: `options.http.maxMessageBytes`
 * reaches whichever HTTP transport the URL speaks, and a misspelt key under `http` is refused.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { json, legacyServer, result } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

/** Larger than one socket read (64 KiB), so the body passes it after the reader attached. */
const CAP = 256 * 1024;
/** Over the cap, far under the 16 MiB default. */
const BIG_TOOLS = { tools: [{ name: 'big', description: 'x'.repeat(1024 * 1024), inputSchema: { type: 'object' } }] };

const scene = useHttpScene<McpClient>();

describe('options.http.maxMessageBytes on a connect by URL', () => {
  it('caps a Streamable HTTP response: over it, the call fails with TRANSPORT naming the limit', async () => {
    await scene.start(
      (seen, res) => (seen.rpc === 'tools/list' ? json(res, result(seen, BIG_TOOLS)) : false),
      legacyServer(),
    );
    scene.client = await McpClient.connect(
      { url: scene.fixture.url },
      { name: 'capped', era: 'legacy', http: { maxMessageBytes: CAP } },
    );
    const error = await scene.client.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSPORT', server: 'capped', method: 'tools/list' });
    expect((error as Error).message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
  });

  it('without it the default cap (16 MiB) applies: the same response is read whole', async () => {
    await scene.start(
      (seen, res) => (seen.rpc === 'tools/list' ? json(res, result(seen, BIG_TOOLS)) : false),
      legacyServer(),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'uncapped', era: 'legacy' });
    expect((await scene.client.listTools()).map((tool) => tool.name)).toEqual(['big']);
  });

  it('a misspelt key under http is refused, naming the key and what was meant', async () => {
    const error = await McpClient.connect(
      { url: 'http://127.0.0.1:9/mcp' },
      { http: { maxBytes: CAP } as never },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toContain(
      'McpClient.connect options.http: unknown option "maxBytes" (did you mean "maxMessageBytes"?)',
    );
  });
});
