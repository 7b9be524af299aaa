/**
 * A workflow YAML file (seed 001) end to end: its `mcp_servers:` (an array `command`, a header
 * with `${GITHUB_TOKEN}`) connected by a manager, the header expanded and sent to a real loopback
 * HTTP server, the file's steps run, and the token shown in no error, status or log line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { McpManager } from '../src/manager/mcp-manager.js';
import { McpStepRunner, type McpStep } from '../src/manager/workflow-step.js';
import { json, legacyServer, rpcError, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const WORKFLOW = path.resolve(FIXTURES, '../configs/workflow-mcp-servers.yaml');
const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const TOKEN = 'ghp-workflow-secret-7731';

let fixture: HttpFixture | undefined;
let manager: McpManager | undefined;
afterEach(async () => void ([manager, fixture] = await endAll([manager, 'disconnectAll'], [fixture, 'close'])));

describe('a workflow file with mcp_servers', () => {
  it('loads both servers, sends the expanded header, runs the workflow steps, and shows the token nowhere', async () => {
    // `leak` answers with an error that quotes the Authorization header, as a careless server might.
    const fallback = legacyServer({
      tools: [
        { name: 'echo', inputSchema: { type: 'object' } },
        { name: 'leak', inputSchema: { type: 'object' } },
      ],
    });
    fixture = await startHttpFixture(
      (seen, res) =>
        seen.rpc === 'tools/call' && (seen.json?.params as { name?: string }).name === 'leak'
          ? json(res, rpcError(seen, -32000, `bad credentials: ${String(seen.headers.authorization)}`))
          : false,
      fallback,
    );
    const logs: string[] = [];
    manager = McpManager.create({
      config: {
        configPaths: [WORKFLOW],
        userConfigPath: false,
        project: false,
        env: { NODE: process.execPath, SERVER_SCRIPT: SCRIPTED, API_URL: fixture.url, GITHUB_TOKEN: TOKEN },
      },
      logger: (line) => logs.push(line),
    });
    const { connected, failed } = await manager.connectAll();
    expect(failed).toEqual([]);
    expect(connected.sort()).toEqual(['db', 'github']);
    expect(manager.getServer('db')).toMatchObject({
      command: process.execPath,
      args: [SCRIPTED, '--version', '2025-06-18'],
    });
    expect(manager.getConnection('db')!.protocolVersion).toBe('2025-06-18');
    expect(fixture.seen('initialize')[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const workflow = parseYaml(readFileSync(WORKFLOW, 'utf8')) as { steps: Array<{ mcp: McpStep }> };
    const runner = new McpStepRunner({ manager });
    const context: Record<string, unknown> = { input: { day: 'monday' } };
    for (const step of workflow.steps) await runner.run(step.mcp, context);
    expect((context.published as { text: string }).text).toBe('echo:rows for monday');
    expect(fixture.seen('tools/call').every((seen) => seen.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

    const leaked = (await runner
      .run({ server: 'github', tool: 'leak', resultKey: 'x' }, context)
      .catch((e: unknown) => e)) as Error;
    expect(leaked.message).toContain('bad credentials: Bearer ***');
    expect(JSON.stringify(manager.getStatus())).not.toContain(TOKEN);
    expect(logs.some((line) => line.startsWith('call mcp__github__leak failed'))).toBe(true);
    expect(logs.join('\n')).not.toContain(TOKEN);
    // Every value that came from a variable counts as a secret in display copies, the URL too.
    expect(logs).toContain('connect "github": http ***');
  });
});
