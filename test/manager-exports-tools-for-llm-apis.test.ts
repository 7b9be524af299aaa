/**
 * The catalogue of a real server (server-everything) handed to the three big LLM APIs: every
 * exported tool has a provider-safe name and a schema free of what that provider rejects, and
 * the server's own schemas are left as they were.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools } from '../src/llm/tool-export.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { EVERYTHING } from './support/cli.js';
import { endAll } from './support/end-all.js';

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywords(item, found);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      found.add(key);
      if (key !== 'properties') keywords(value, found);
      else for (const property of Object.values(value as object)) keywords(property, found);
    }
  }
  return found;
}

describe('exporting the catalogue for LLM APIs', () => {
  it('OpenAI, Anthropic and Gemini shapes from server-everything, without mutating its schemas', async () => {
    manager = McpManager.create({
      servers: [
        {
          name: 'everything',
          transport: 'stdio',
          command: process.execPath,
          args: [path.resolve(EVERYTHING), 'stdio'],
        },
      ],
    });
    await manager.connectAll();
    const tools = manager.getAllTools();
    expect(tools.length).toBeGreaterThan(5);
    const before = JSON.stringify(tools.map((t) => t.definition.inputSchema));

    const openai = toOpenAITools(tools);
    expect(openai.tools).toHaveLength(tools.length);
    for (const tool of openai.tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool.function.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(keywords(tool.function.parameters).has('$schema')).toBe(false);
    }
    const anthropic = toAnthropicTools(tools);
    for (const tool of anthropic.tools) expect(tool.input_schema).toMatchObject({ type: 'object' });
    const gemini = toGeminiFunctionDeclarations(tools);
    for (const declaration of gemini.functionDeclarations) {
      const used = keywords(declaration.parameters ?? {});
      for (const banned of [
        '$schema',
        '$ref',
        '$defs',
        'definitions',
        'additionalProperties',
        'exclusiveMinimum',
        'exclusiveMaximum',
        'const',
      ])
        expect(used.has(banned)).toBe(false);
    }
    expect(openai.tools.find((t) => t.function.name === 'mcp__everything__echo')?.function.description).toBeTruthy();
    expect(JSON.stringify(tools.map((t) => t.definition.inputSchema))).toBe(before);
  });
});
