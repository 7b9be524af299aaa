/**
 * A 2026 request whose `_meta` protocol version is a hostile value (100,000 nested arrays, which
 * `JSON.stringify` cannot render; a 5,000-character string) still gets its JSON-RPC answer, and
 * the answer quotes the value only as a bounded sample. Over a real loopback listener and a kit
 * server child on its own stdio (needs `npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp } from './support/kit-http.js';
import { KIT_STDIO_SERVER, startKitStdio } from './support/kit-stdio.js';
import { exchange } from './support/kit-wire.js';

const DEPTH = 100_000;
/** The JSON text of the request, with the version as raw JSON text (the deep value cannot be stringified). */
function requestText(id: number, versionJson: string): string {
  return (
    `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":{` +
    `"io.modelcontextprotocol/protocolVersion":${versionJson},"io.modelcontextprotocol/clientCapabilities":{}}}}`
  );
}
const DEEP = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const LONG = 'v'.repeat(5_000);

async function listen(): Promise<string> {
  return (await startKitHttp(new McpServer({ name: 'deep', version: '1', logger: () => undefined }))).url;
}

describe('over Streamable HTTP', () => {
  it('answers a deeply nested version with 400 and -32020 (the header cannot match it), not a 500', async () => {
    const url = await listen();
    const answer = await exchange(url, {
      body: requestText(1, DEEP),
      headers: {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32020 } });
    expect(answer.text.length).toBeLessThan(1_000);
  });

  it('answers a long unsupported version with -32022 whose `requested` is a bounded sample', async () => {
    const url = await listen();
    const answer = await exchange(url, {
      body: requestText(2, JSON.stringify(LONG)),
      headers: {
        'mcp-protocol-version': LONG,
        'mcp-method': 'tools/list',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ id: 2, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
    const requested = answer.json.error.data.requested as string;
    expect(requested.startsWith('vvvv')).toBe(true);
    expect(requested.length).toBeLessThan(600);
  });
});

describe('over stdio', () => {
  it('answers a deeply nested version with -32022, `requested` a bounded sample, and keeps serving', async () => {
    const child = startKitStdio(KIT_STDIO_SERVER);
    child.write(requestText(1, DEEP));
    const answer = await child.answer(1);
    expect(answer.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    const requested = answer.error.data.requested as string;
    expect(typeof requested).toBe('string');
    expect(requested.startsWith('[[[[')).toBe(true);
    expect(requested.length).toBeLessThan(300);
    child.write({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect((await child.answer(2)).result).toEqual({});
  });
});
