/**
 * A valid `tools/call` result may hold a value nested 100,000 levels deep (a `_meta` of a content
 * block, `structuredContent` without an outputSchema): `JSON.parse` reads it, `JSON.stringify`
 * overflows the stack. What the host does with such a result is bounded and named instead of a
 * `RangeError`: the text for the model says what was left out and names tool and server, the
 * workflow step refuses to store it naming them, and `mcpwire call` prints a clear error and
 * exits 7 (and `--json` still prints one envelope for an error whose data is that deep).
 */
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools } from '../src/llm/tool-export.js';
import { McpStepRunner } from '../src/manager/workflow-step.js';
import { jsonText } from '../src/protocol/json-text.js';
import type { Tool } from '../src/protocol/types.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const DEEP = path.join(FIXTURES, 'stdio', 'deep-nesting.mjs');
const node = process.execPath;
const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('JSON text of a peer value', () => {
  it('is refused past 1000 levels without a RangeError, whatever the depth, and written below it', () => {
    expect(jsonText(nested(100_000))).toEqual({ problem: 'nested more than 1000 levels deep' });
    expect(jsonText({ a: nested(1_000) }).problem).toBe('nested more than 1000 levels deep');
    expect(jsonText(nested(1_000)).text).toBe('['.repeat(1_000) + ']'.repeat(1_000));
    expect(jsonText({ n: 1n }).problem).toMatch(/^not writable as JSON \(/);
  });
});

describe('the manager and the workflow step, given a result nested 100,000 levels deep', () => {
  it('execute() resolves with a text for the model that says structuredContent was too deeply nested, naming tool and server', async () => {
    manager = McpManager.create({ servers: [{ name: 'deep', transport: 'stdio', command: node, args: [DEEP] }] });
    await manager.connectAll();
    const outcome = await manager.execute('mcp__deep__deep-structured-unchecked', {});
    expect(outcome.text).toBe(
      '[structuredContent of tool "deep-structured-unchecked" (server "deep") not shown: nested more than 1000 levels deep]',
    );
    expect(outcome.truncated).toBe(false);
    expect(outcome.isError).toBe(false);
    // The text blocks of a result whose _meta is deep render as usual.
    expect((await manager.execute('mcp__deep__deep-content', {})).text).toBe('deep');
  });

  it('the workflow step rejects with PROTOCOL naming tool and server, and stores nothing', async () => {
    const runner = new McpStepRunner();
    try {
      for (const tool of ['deep-content', 'deep-structured-unchecked']) {
        const context: Record<string, unknown> = {};
        await expect(
          runner.run({ server: { name: 'deep', command: [node, DEEP] }, tool, resultKey: 'r' }, context),
        ).rejects.toMatchObject({
          code: 'PROTOCOL',
          message: `server "deep": tools/call tool "${tool}" returned a result the step cannot store: it is nested more than 1000 levels deep`,
        });
        expect(context).toEqual({});
      }
    } finally {
      await runner.reset();
    }
  });
});

describe('the LLM tool exports, given a tool whose inputSchema is nested 100,000 levels deep', () => {
  it('replace that schema by an empty object schema and report it as a change, for every provider', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { p: deep } };
    const tools = [{ name: 'mcp__deep__nest', definition: { name: 'nest', inputSchema: deep as Tool['inputSchema'] } }];
    const change = {
      name: 'mcp__deep__nest',
      changes: [
        {
          path: '/type',
          action: 'rewritten',
          keyword: 'type',
          detail: 'the schema is nested more than 1000 levels deep; replaced by an empty object schema',
        },
      ],
    };
    expect(toOpenAITools(tools)).toEqual({
      tools: [
        { type: 'function', function: { name: 'mcp__deep__nest', parameters: { type: 'object', properties: {} } } },
      ],
      changes: [change],
    });
    expect(toAnthropicTools(tools).tools).toEqual([
      { name: 'mcp__deep__nest', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(toGeminiFunctionDeclarations(tools).functionDeclarations).toEqual([{ name: 'mcp__deep__nest' }]);
  });
});

/** `mcpwire call TOOL --json` on the deep server: no RangeError, exit `code`; the envelope printed. */
async function callJson(tool: string, code: number): Promise<unknown> {
  const run = await runCli(['call', tool, '--json', '--', node, DEEP]);
  expect(run.stderr).not.toContain('RangeError');
  expect(run.code).toBe(code);
  return run.json();
}

describe('mcpwire call, given a result nested 100,000 levels deep', () => {
  beforeAll(() => requireBuiltCli());

  it('--json prints one RESULT_TOO_DEEP envelope naming server and tool, and exits 7', async () => {
    expect(await callJson('deep-content', 7)).toEqual({
      ok: false,
      error: {
        code: 'RESULT_TOO_DEEP',
        message:
          'server "deep-nesting": tools/call result of tool "deep-content" cannot be printed: it is nested more than 1000 levels deep',
        exitCode: 7,
      },
    });
  });

  it('as text, a structuredContent it cannot show is an error on stderr and exit 7; a deep _meta does not matter', async () => {
    const run = await runCli(['call', 'deep-structured-unchecked', '--', node, DEEP]);
    expect(run.code).toBe(7);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: server "deep-nesting": tools/call result of tool "deep-structured-unchecked" cannot be printed: its structuredContent is nested more than 1000 levels deep\n',
    );
    const plain = await runCli(['call', 'deep-content', '--', node, DEEP]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('deep\n');
  });

  it('--json with a server error whose data is that deep prints the error without its data, and exits 5', async () => {
    expect(await callJson('deep-error', 5)).toEqual({
      ok: false,
      error: {
        code: 'SERVER_ERROR',
        message: 'server "deep-nesting": tools/call failed: deep data (-32000)',
        server: 'deep-nesting',
        method: 'tools/call',
        rpcCode: -32000,
        exitCode: 5,
        dataOmitted: "the error's data is nested more than 1000 levels deep",
      },
    });
  });
});
