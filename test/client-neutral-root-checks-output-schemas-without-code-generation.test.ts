/**
 * Where code generation is forbidden (Workers, strict-CSP pages; here Node with
 * `--disallow-code-generation-from-strings`, which makes `new Function` throw as workerd does),
 * the built neutral root (`dist/neutral.js`) loads its JSON Schema engine without code generation
 * on the first output schema it checks (the engine is a lazy chunk, so a page that never meets an
 * output schema never loads it): a broken `structuredContent` is an `OutputSchemaError` with
 * Ajv's problems, a conforming one passes. When that engine cannot be loaded (a chunk the page
 * could not fetch), the call rejects with an `OutputSchemaError` saying so, and the client stays usable.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const run = promisify(execFile);

// A hand-written server on the far end of the in-memory pair: one tool with an output schema.
const SERVER = `
let evalAllowed = true;
try { new Function(''); } catch { evalAllowed = false; }
const [clientEnd, serverEnd] = createLinkedPair();
const TOOL = {
  name: 'strict',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};
serverEnd.onMessage((message) => {
  if (message.id === undefined) return;
  const reply = (result) => serverEnd.send({ jsonrpc: '2.0', id: message.id, result });
  if (message.method === 'initialize')
    return reply({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'typed', version: '1' } });
  if (message.method === 'tools/list') return reply({ tools: [TOOL] });
  if (message.method === 'tools/call')
    return reply({ content: [], structuredContent: message.params.arguments.good ? { id: 'a' } : { id: 1 } });
  serverEnd.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } });
});
const client = await McpClient.connect(clientEnd, { name: 'typed', era: 'legacy' });
await client.listTools();
`;

const SCRIPT = `
const { McpClient, OutputSchemaError, createLinkedPair } = await import(process.argv[1]);
${SERVER}
const bad = await client.callTool('strict', { good: false }).catch((error) => error);
const good = await client.callTool('strict', { good: true });
await client.close();
console.log(JSON.stringify({
  evalAllowed,
  bad: { isOutputSchemaError: bad instanceof OutputSchemaError, code: bad.code, problems: bad.problems?.map((p) => [p.instancePath, p.keyword]) },
  good: good.structuredContent,
}));
`;

it('checks structured output without code generation through the neutral root, loading the engine on first use', async () => {
  const neutral = path.join(ROOT, 'dist/neutral.js');
  if (!existsSync(neutral)) throw new Error(`${neutral} is missing: run "npm run build" (npm test does it)`);
  const { stdout } = await run(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--input-type=module', '--eval', SCRIPT, neutral],
    { timeout: 60_000 },
  );
  expect(JSON.parse(stdout)).toEqual({
    evalAllowed: false,
    bad: { isOutputSchemaError: true, code: 'OUTPUT_SCHEMA_MISMATCH', problems: [['/id', 'type']] },
    good: { id: 'a' },
  });
});

// The source modules (through tsx) with a loader that fails as a page's failed chunk fetch does.
const FAILING_LOAD = `
const root = process.argv[1];
const { installNoEvalLoader } = await import(root + '/src/protocol/schema-engines.ts');
installNoEvalLoader(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
const { McpClient } = await import(root + '/src/client/mcp-client.ts');
const { OutputSchemaError } = await import(root + '/src/client/output-schema.ts');
const { createLinkedPair } = await import(root + '/src/transport/memory.ts');
${SERVER}
const failed = await client.callTool('strict', { good: true }).catch((error) => error);
const tools = await client.listTools();
await client.close();
console.log(JSON.stringify({
  evalAllowed,
  failed: { isOutputSchemaError: failed instanceof OutputSchemaError, code: failed.code, message: failed.message, cause: failed.cause?.message },
  stillUsable: tools.map((tool) => tool.name),
}));
`;

it('rejects a call with an OutputSchemaError when the engine without code generation cannot be loaded', async () => {
  const { stdout } = await run(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '--eval', FAILING_LOAD, ROOT],
    { timeout: 60_000, cwd: ROOT },
  );
  expect(JSON.parse(stdout)).toEqual({
    evalAllowed: false,
    failed: {
      isOutputSchemaError: true,
      code: 'OUTPUT_SCHEMA_MISMATCH',
      message:
        'server "typed": tools/call tool "strict" has an outputSchema and the JSON Schema validator did not load: Failed to fetch dynamically imported module',
      cause: 'Failed to fetch dynamically imported module',
    },
    stillUsable: ['strict'],
  });
});
