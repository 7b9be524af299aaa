#!/usr/bin/env node
// The README's picture of `mcpwire trace report`: real traffic recorded by `mcpwire proxy
// --trace-file` in front of two fixture servers at once (the scripted legacy server at
// 2025-11-25 and the official SDK's v2 server at 2026-07-28), driven by mcpwire's client from
// dist/: calls, progress, a tool error, a JSON-RPC error, a cancelled call and a crash. The
// report is opened in Debian's chromium (playwright-core), one call selected, and saved.
//
//   npm run build && node scripts/report-screenshot.mjs [OUT.png]   (default docs/trace-report.png)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/cli.js');
const { McpClient } = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/trace-report.png'));
const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-report-shot-'));
const trace = path.join(dir, 'traffic.jsonl');

/** Connects through the recording proxy, runs `tour`, closes; failures of single calls are part of the picture. */
async function session(server, tour) {
  const client = await McpClient.connect({
    command: process.execPath,
    args: [cli, 'proxy', '--trace-file', trace, '--', process.execPath, ...server],
  });
  try {
    await tour(client);
  } finally {
    await client.close();
  }
}
const quietly = (promise) => promise.catch(() => undefined);

async function legacy(client) {
  await client.listTools();
  for (let i = 0; i < 3; i++) {
    await client.callTool('echo', { text: `hello ${i}` });
    await client.callTool('slow', { ms: 40 + 20 * i, steps: 3 }, { onProgress: () => {} });
  }
  await client.callTool('fails', {});
  await quietly(client.callTool('no-such-tool', {}));
  await quietly(client.callTool('never-answer', {}, { timeoutMs: 120 }));
  await client.callTool('add', { a: 2, b: 3 });
  await quietly(client.callTool('crash', {}));
}

async function modern(client) {
  await client.listTools();
  await client.listResources();
  for (let i = 0; i < 3; i++) {
    await client.callTool('slow', { ms: 60, steps: 2 }, { onProgress: () => {} });
    await client.callTool('add', { a: i, b: 1 });
  }
  await client.callTool('fails', {});
  await quietly(client.callTool('nope', {}));
  await client.readResource('test://static/hello');
  await client.callTool('echo', { text: 'done' });
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  await Promise.all([
    session([path.join(root, 'spec-fixtures/servers/legacy/scripted-server.mjs')], legacy),
    session([path.join(root, 'spec-fixtures/servers/modern/v2-server.mjs')], modern),
  ]);
  const report = path.join(dir, 'report.html');
  const run = spawnSync(process.execPath, [cli, 'trace', 'report', trace, '-o', report], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`trace report failed: ${run.stderr}`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(30_000);
  await page.goto(`${pathToFileURL(report).href}#method=tools%2Fcall`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('#rows .row.st-error');
  await page.screenshot({ path: out });
  console.log(`${path.relative(root, out)}: ${statSync(out).size} bytes`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
