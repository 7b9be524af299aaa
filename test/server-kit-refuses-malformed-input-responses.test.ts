/**
 * 2026-07-28 multi-round-trip input: `inputResponses` that are not an object of answers, or hold
 * an answer that is not an object, are refused with -32602 before the handler runs (SEP-2322:
 * servers validate input responses), over a real loopback listener. Well-formed answers, extra
 * keys included, still reach the handler.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { modernRequest } from './support/kit-wire.js';

let kit: KitHttp | undefined;
let runs: number;

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
  kit = await startKitHttp(server);
}

async function callTool(extra: Record<string, unknown>): Promise<any> {
  const params = { name: 'ask_name', arguments: {}, ...extra };
  const answer = await modernRequest(kit!.url, 'tools/call', params, {
    capabilities: { elicitation: {} },
    headers: { accept: 'application/json', 'mcp-name': 'ask_name' },
  });
  return answer.json;
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
