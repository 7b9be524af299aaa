/**
 * 2026-07-28 multi-round-trip input: `inputResponses` that are not an object of answers, or hold
 * an answer that is not an object, are refused with -32602 before the handler runs (SEP-2322:
 * servers validate input responses), over a real loopback listener. Well-formed answers, extra
 * keys included, still reach the handler.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { listenKit, type KitHttp } from './support/kit-http.js';

let kit: KitHttp | undefined;
let runs: number;

afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function start(): Promise<void> {
  runs = 0;
  const server = new McpServer({ name: 'asks', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'ask_name',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      runs++;
      const answer = await context.elicit(
        { message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
        { key: 'user_name' },
      );
      return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}` }] };
    },
  });
  kit = await listenKit(server);
}

function callTool(extra: Record<string, unknown>): Promise<any> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'ask_name',
      arguments: {},
      ...extra,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      kit!.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'ask_name',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('inputResponses of a 2026-07-28 request', () => {
  it.each([
    ['an answer that is a number', { user_name: 12345 }, 'inputResponses["user_name"] must be an object'],
    ['an answer that is null', { user_name: null }, 'inputResponses["user_name"] must be an object'],
    ['null', null, 'inputResponses must be an object'],
    ['an array', [{ action: 'accept' }], 'inputResponses must be an object'],
  ])('are refused with -32602 when given %s, and the handler never runs', async (_what, inputResponses, message) => {
    await start();
    const answer = await callTool({ inputResponses });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error.message).toContain(message);
    expect(runs).toBe(0);
  });

  it('reach the handler when well-formed, unknown keys beside them ignored', async () => {
    await start();
    const answer = await callTool({
      inputResponses: {
        user_name: { action: 'accept', content: { name: 'Ada' } },
        extra: { action: 'accept', content: {} },
      },
    });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada' }] });
  });
});
