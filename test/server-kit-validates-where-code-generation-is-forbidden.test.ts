/**
 * Where code generation is forbidden (Workers, strict-CSP pages; here Node with
 * `--disallow-code-generation-from-strings`, which makes `new Function` throw as workerd does),
 * the built neutral entry of `mcpwire/server` still refuses a broken schema at registration and
 * checks arguments, with the same words as Ajv.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const run = promisify(execFile);

const SCRIPT = `
const { McpServer } = await import(process.argv[1]);
let evalAllowed = true;
try { new Function(''); } catch { evalAllowed = false; }
const server = new McpServer({ name: 'no-eval', version: '1', logger: () => undefined });
let refused;
try {
  server.registerTool({ name: 'broken', inputSchema: { type: 'object', properties: { a: { minLength: -1 } } }, handler: () => ({ content: [] }) });
} catch (error) { refused = error.code; }
server.registerTool({
  name: 'short',
  inputSchema: { type: 'object', properties: { a: { type: 'string', maxLength: 1 } }, required: ['a'] },
  handler: () => ({ content: [{ type: 'text', text: 'ran' }] }),
});
const bad = await server.callTool('short', { a: 'xyz' });
const good = await server.callTool('short', { a: 'x' });
console.log(JSON.stringify({ evalAllowed, refused, bad: bad.structuredContent, good: good.content }));
`;

it('checks schemas and arguments without code generation through the neutral entry', async () => {
  const neutral = path.join(ROOT, 'dist/server/neutral.js');
  if (!existsSync(neutral)) throw new Error(`${neutral} is missing: run "npm run build" (npm test does it)`);
  const { stdout } = await run(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--input-type=module', '--eval', SCRIPT, neutral],
    { timeout: 60_000 },
  );
  const outcome = JSON.parse(stdout) as Record<string, unknown>;
  expect(outcome).toEqual({
    evalAllowed: false,
    refused: 'INVALID_ARGUMENT',
    bad: {
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Invalid arguments for tool "short": /a must NOT have more than 1 characters',
        paths: ['/a'],
      },
    },
    good: [{ type: 'text', text: 'ran' }],
  });
});
