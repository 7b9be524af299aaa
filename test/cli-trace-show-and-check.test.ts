/**
 * `mcpwire trace show` and `mcpwire trace check` on traces recorded from real processes: a
 * lying fixture server behind `mcpwire proxy` (every deliberate violation found, with its line),
 * and a clean session (no violation, with and without the official schemas).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { CLI, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { FIXTURES } from './support/processes.js';
import { useTempDir } from './support/temp-dir.js';

const SCHEMAS = path.resolve(path.dirname(CLI), '../../shared/mcp-spec');
const node = process.execPath;
const tmp = useTempDir('mcpwire-trace-check-');
beforeAll(() => requireBuiltCli());

async function recordThroughProxy(
  file: string,
  server: string[],
  session: (client: McpClient) => Promise<void>,
): Promise<void> {
  const client = await McpClient.connect(
    { command: node, args: [CLI, 'proxy', '--trace-file', file, '--', ...server] },
    { era: 'legacy', validateOutput: false },
  );
  try {
    await session(client);
  } finally {
    await client.close();
  }
}

describe('mcpwire trace check', () => {
  it('finds every deliberate violation of a lying server, each with the line it came from; exits 5', async () => {
    const file = path.join(tmp.dir, 'lying.jsonl');
    await recordThroughProxy(file, [node, path.join(FIXTURES, 'legacy/lying-server.mjs')], async (client) => {
      await client.listToolsPage().catch(() => undefined);
      await client.callTool('echo', {}).catch(() => undefined);
      await client.listResourcesPage().catch(() => undefined);
      await client.getPrompt('p').catch(() => undefined);
      await client.ping();
    });
    const run = await runCli(['trace', 'check', file, '--json']);
    expect(run.code).toBe(5);
    const violations = run.json<{ error: { violations: Array<{ rule: string; line: number; method?: string }> } }>()
      .error.violations;
    const rules = violations.map((v) => v.rule);
    for (const rule of [
      'result.tools-list',
      'result.tools-call',
      'result.next-cursor',
      'result.prompts-get',
      'method.not-in-revision',
      'capability.client-undeclared',
    ])
      expect(rules).toContain(rule);
    for (const v of violations) expect(v.line).toBeGreaterThan(0);

    const text = await runCli(['trace', 'check', file]);
    expect(text.stdout).toMatch(
      new RegExp(
        `${file.replace(/[.]/g, '\\.')}:\\d+: lying-server ← tools/list #\\d+ \\[result\\.tools-list\\] result\\.tools\\[0\\]\\.inputSchema\\.type must be "object"`,
      ),
    );
    expect(text.stdout).toMatch(/^\d+ violation\(s\) in \d+ message\(s\)/m);
  });

  it('a clean session has no violation, with the official schemas too when they are at hand', async () => {
    const file = path.join(tmp.dir, 'clean.jsonl');
    await recordThroughProxy(file, [node, SCRIPTED], async (client) => {
      await client.listTools();
      await client.callTool('add', { a: 1, b: 2 });
      await client.readResource('test://static/1');
      await client.getPrompt('greet', { name: 'Ada' });
    });
    const rules = await runCli(['trace', 'check', file]);
    expect(rules.code).toBe(0);
    expect(rules.stdout).toMatch(/^0 violation\(s\)/m);
    if (existsSync(SCHEMAS)) {
      const schemas = await runCli(['trace', 'check', file, '--schemas', SCHEMAS]);
      expect(schemas.stdout).toContain('0 violation(s) in');
      expect(schemas.code).toBe(0);
    }
  });
});

describe('mcpwire trace show', () => {
  it('prints the frames, filters by method, id and errors, and summarises latency per method', async () => {
    const file = path.join(tmp.dir, 'show.jsonl');
    await recordThroughProxy(file, [node, SCRIPTED], async (client) => {
      await client.callTool('echo', { text: 'a' });
      await client.callTool('fails', {});
      await client.listResources();
    });
    const all = await runCli(['trace', 'show', file]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/→ request initialize #\d+/);
    expect(all.stdout).toMatch(/^server\s+method\s+count\s+errors\s+min\s+p50\s+p95\s+max/m);
    expect(all.stdout).toMatch(/^scripted-server\s+tools\/call\s+2\s+1\s/m);

    const calls = await runCli(['trace', 'show', file, '--method', 'tools/call', '--json']);
    const records = calls.json<{ result: { records: Array<{ method: string }> } }>().result.records;
    expect(records.length).toBe(4);
    expect(new Set(records.map((r) => r.method))).toEqual(new Set(['tools/call']));
    const errors = await runCli(['trace', 'show', file, '--errors', '--json']);
    expect(errors.json<{ result: { records: unknown[] } }>().result.records).toHaveLength(1);
    const byId = await runCli([
      'trace',
      'show',
      file,
      '--id',
      String((records[0] as { id?: number }).id ?? ''),
      '--json',
    ]);
    const idRecords = byId.json<{ result: { records: Array<{ method: string; kind: string }> } }>().result.records;
    expect(idRecords.map((r) => r.kind).sort()).toEqual(['request', 'response']);
    const otherServer = await runCli(['trace', 'show', file, '--server', 'nobody', '--json']);
    expect(otherServer.json<{ result: { records: unknown[] } }>().result.records).toEqual([]);
    expect((await runCli(['trace', 'show', path.join(tmp.dir, 'missing.jsonl')])).code).toBe(1);
  });
});
