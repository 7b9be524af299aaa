/**
 * `--trace` and `--trace-file` on one-shot commands: every frame recorded, with secrets (an `-e`
 * value, a `--header` credential) replaced wherever they would appear, in the file and on stderr.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { modernOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';
import { parseJsonl } from './support/jsonl.js';

const SECRET = 'sk-live-7c1e2d3f4a5b';
const tmp = useTempDir('mcpwire-cli-trace-');
let http: HttpServerProcess | undefined;
beforeAll(() => requireBuiltCli());
afterEach(async () => void ([http] = await endAll([http, 'stop'])));

describe('mcpwire --trace / --trace-file', () => {
  it('records every frame of a stdio session to JSONL and stderr, with -e values redacted everywhere', async () => {
    const file = path.join(tmp.dir, 't.jsonl');
    const run = await runCli([
      'call',
      'echo',
      '--arg',
      `text=${SECRET}`,
      '-e',
      `API_KEY=${SECRET}`,
      '--trace',
      '--trace-file',
      file,
      '--',
      process.execPath,
      SCRIPTED,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${SECRET}\n`); // the result itself is the user's to see
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(run.stderr).not.toContain(SECRET);
    const records = parseJsonl<TraceRecord>(text);
    const methods = records.filter((r) => r.kind === 'request').map((r) => r.method);
    expect(methods).toEqual(['server/discover', 'ping', 'initialize', 'tools/list', 'tools/call']);
    const call = records.find((r) => r.kind === 'response' && r.method === 'tools/call')!;
    expect(call.message).toMatchObject({ result: { content: [{ type: 'text', text: '***' }] } });
    expect(run.stderr).toMatch(/→ request tools\/call #\d+/);
  });

  it('an HTTP session carries status and MCP headers; the Authorization value never appears', async () => {
    http = await modernOverHttp();
    const file = path.join(tmp.dir, 'h.jsonl');
    const run = await runCli([
      'tools',
      '--url',
      http.url,
      '--header',
      `Authorization: Bearer ${SECRET}`,
      '--trace-file',
      file,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    const records = parseJsonl<TraceRecord>(text);
    const list = records.find((r) => r.kind === 'request' && r.method === 'tools/list')!;
    expect(list.http?.headers).toMatchObject({
      authorization: 'Bearer ***',
      'mcp-method': 'tools/list',
      'mcp-protocol-version': '2026-07-28',
    });
    expect(records.find((r) => r.kind === 'response' && r.method === 'tools/list')?.http?.status).toBe(200);
  });
});
