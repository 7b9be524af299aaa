/**
 * A tool result whose `structuredContent` breaks the tool's `outputSchema` rejects with an
 * `OutputSchemaError` (`OUTPUT_SCHEMA_MISMATCH`) naming the tool and holding the validator's
 * problems as a typed field; the peer's `data` stays empty. A tool that declares a schema and
 * returns no `structuredContent` gets the same class with no problems.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { OutputSchemaError } from '../src/client/output-schema.js';
import { scriptedPair } from './support/scripted-peer.js';
import { endAll } from './support/end-all.js';
import { failureOf } from './support/failure.js';

const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'typed', version: '1' },
};
const STRICT = {
  name: 'strict',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } }, required: ['id'] },
};

let client: McpClient | undefined;
afterEach(async () => void ([client] = await endAll([client, 'close'])));

async function connected(structuredContent: unknown) {
  const { clientTransport, peer } = scriptedPair();
  peer.on('initialize', () => INITIALIZED);
  peer.on('tools/list', () => ({ tools: [STRICT] }));
  peer.on('tools/call', () => ({ content: [], ...(structuredContent === undefined ? {} : { structuredContent }) }));
  client = await McpClient.connect(clientTransport, { name: 'typed', era: 'legacy' });
  await client.listTools();
  return client;
}

describe('an outputSchema mismatch', () => {
  it('is an OutputSchemaError with the tool and every problem the validator found', async () => {
    const error = await failureOf((await connected({ n: 1.5 })).callTool('strict', {}), OutputSchemaError, {
      code: 'OUTPUT_SCHEMA_MISMATCH',
      server: 'typed',
      method: 'tools/call',
      tool: 'strict',
      data: undefined,
    });
    const problems = error.problems;
    expect(problems.map((p) => [p.instancePath, p.keyword])).toEqual(
      expect.arrayContaining([
        ['', 'required'],
        ['/n', 'type'],
      ]),
    );
    expect(error.toJSON()).toMatchObject({
      tool: 'strict',
      problems: expect.arrayContaining([expect.objectContaining({ instancePath: '/n', keyword: 'type' })]),
    });
  });

  it('no structuredContent from a tool with an outputSchema: the same class, no problems', async () => {
    const error = await failureOf((await connected(undefined)).callTool('strict', {}), OutputSchemaError, {
      tool: 'strict',
      problems: [],
    });
    expect((error as Error).message).toBe(
      'server "typed": tools/call tool "strict" declares an outputSchema but returned no structuredContent',
    );
  });
});
