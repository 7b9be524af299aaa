/**
 * CommonJS callers: `require('mcpwire')` from a `.cjs` file works on Node >= 20.19 (require of
 * the ES module build through the `node` condition; no second build). The required namespace is
 * the one `import` gives (same classes), and the client it gives starts a stdio server: the node
 * entry registered its Node parts while being required.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPTED } from './support/cli.js';
import { installedCopy, type InstalledCopy } from './support/installed-copy.js';

const run = promisify(execFile);

const APP = `
const mcpwire = require('mcpwire');
const { McpClient } = mcpwire;
(async () => {
  const esm = await import('mcpwire');
  const client = await McpClient.connect({ command: process.execPath, args: [${JSON.stringify(SCRIPTED)}] }, { name: 'scripted' });
  const tools = (await client.listTools()).map((tool) => tool.name);
  await client.close();
  console.log(JSON.stringify({ client: typeof McpClient, same: esm.McpClient === McpClient, tools }));
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

let project: InstalledCopy;
beforeAll(() => {
  project = installedCopy('cjs', { 'app.cjs': APP });
});
afterAll(() => project?.remove());

it('require("mcpwire") from a .cjs file gives McpClient, the same one import gives, and it runs a stdio server', async () => {
  const { stdout, stderr } = await run(process.execPath, ['app.cjs'], { cwd: project.dir, timeout: 30_000 });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { client: string; same: boolean; tools: string[] };
  expect(result.client).toBe('function');
  expect(result.same).toBe(true);
  expect(result.tools.length).toBeGreaterThan(0);
  expect(stderr).not.toMatch(/ERR_|Error/);
});
