/**
 * The manager's options never do nothing silently: unknown keys (top level, `config`, `client`,
 * and the workflow step's) are `INVALID_ARGUMENT` errors naming the key and what was meant;
 * `{ cwd }` (the shape the architecture notes show) reads that project's config; options that
 * cannot all take effect are refused; and `getInstance` with options that differ from the
 * first call's throws instead of ignoring them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigLoader } from '../src/manager/config/load-config.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { McpStepRunner, resetMcpSteps, runMcpStep } from '../src/manager/workflow-step.js';
import { isMcpError, type McpError } from '../src/protocol/errors.js';
import { FIXTURES } from './support/processes.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const node = process.execPath;
const server = (name: string): ManagedServer => ({ name, transport: 'stdio', command: node, args: [SCRIPTED] });

async function refusal(
  run: () => unknown,
  code: 'INVALID_ARGUMENT' | 'INVALID_STATE' = 'INVALID_ARGUMENT',
): Promise<McpError> {
  let error: unknown;
  try {
    await run();
  } catch (caught) {
    error = caught;
  }
  expect(isMcpError(error, code), String(error)).toBe(true);
  return error as McpError;
}

let project: string;
beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-options-'));
  writeFileSync(
    path.join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { repo: { command: node, args: [SCRIPTED] } } }),
  );
});
afterEach(async () => {
  await resetMcpSteps();
  await McpManager.resetInstance();
  rmSync(project, { recursive: true, force: true });
});

describe('unknown option keys', () => {
  it('McpManager.create and getInstance refuse unknown keys at the top and in config and client, with the key meant', async () => {
    expect((await refusal(() => McpManager.create({ homeDir: '/tmp' } as never))).message).toContain(
      'McpManager options: unknown option "homeDir" (did you mean "config.homeDir"?)',
    );
    expect((await refusal(() => McpManager.create({ requestTimeoutMs: 5 } as never))).message).toContain(
      '(did you mean "client.requestTimeoutMs"?)',
    );
    expect((await refusal(() => McpManager.create({ config: { configPath: 'x.json' } } as never))).message).toContain(
      'config options: unknown option "configPath" (did you mean "configPaths"?)',
    );
    expect(
      (await refusal(() => McpManager.create({ client: { handlers: { sample: () => ({}) } } } as never))).message,
    ).toContain('options.handlers: unknown option "sample"');
    expect((await refusal(() => McpManager.getInstance({ serverz: [] } as never))).message).toContain(
      'unknown option "serverz" (did you mean "servers"?)',
    );
    expect((await refusal(() => new ConfigLoader({ projectDir: '/tmp' } as never))).message).toContain(
      'unknown option "projectDir" (did you mean "cwd"?)',
    );
  });

  it('the step runner, runMcpStep and a step itself refuse unknown keys', async () => {
    expect((await refusal(() => new McpStepRunner({ managr: undefined } as never))).message).toContain(
      'McpStepRunner options: unknown option "managr" (did you mean "manager"?)',
    );
    expect(
      (
        await refusal(() =>
          runMcpStep({ server: 'x', tool: 'echo', resultKey: 'r' }, {}, { runer: undefined } as never),
        )
      ).message,
    ).toContain('runMcpStep options: unknown option "runer" (did you mean "runner"?)');
    const runner = new McpStepRunner();
    const step = { server: { command: node, args: [SCRIPTED] }, tool: 'echo', args: { text: 'x' }, resultKey: 'r' };
    expect((await refusal(() => runner.run(step as never, {}))).message).toContain(
      'MCP step: unknown option "args" (did you mean "arguments"?)',
    );
    await runner.reset();
  });
});

describe('cwd', () => {
  it("getInstance({ cwd }) reads that project's config, as config.cwd does", async () => {
    const manager = McpManager.getInstance({ cwd: project, config: { userConfigPath: false } });
    await manager.init();
    expect(manager.listServers()).toEqual(['repo']);
    expect(manager.getServer('repo')!.provenance).toEqual({ file: path.join(project, '.mcp.json'), scope: 'project' });
    // The same options written the long way are the same options.
    expect(McpManager.getInstance({ config: { cwd: project, userConfigPath: false } })).toBe(manager);
  });

  it('refuses cwd that disagrees with config.cwd, and load together with config or cwd', async () => {
    expect((await refusal(() => McpManager.create({ cwd: project, config: { cwd: os.tmpdir() } }))).message).toContain(
      '"cwd" (',
    );
    const load = async (): Promise<ManagedServer[]> => [];
    expect((await refusal(() => McpManager.create({ cwd: project, load }))).message).toContain(
      '"load" and "cwd" both say where the configuration comes from',
    );
    expect((await refusal(() => McpManager.create({ config: {}, load }))).message).toContain('"load" and "config"');
  });
});

describe('getInstance', () => {
  it('returns the one manager for no options or equal ones, and refuses different options naming them', async () => {
    const approve = (): boolean => true;
    const first = McpManager.getInstance({ servers: [server('x')], maxResultChars: 500, approve });
    expect(McpManager.getInstance()).toBe(first);
    expect(McpManager.getInstance({ servers: [server('x')], maxResultChars: 500, approve })).toBe(first);

    const differing = await refusal(
      () => McpManager.getInstance({ servers: [server('y')], maxResultChars: 500, approve: () => true }),
      'INVALID_STATE',
    );
    expect(differing.message).toContain('already exists with other options (differing: servers, approve)');
    expect(differing.message).toContain('McpManager.create(options)');
    expect((await refusal(() => McpManager.getInstance({ cwd: project }), 'INVALID_STATE')).message).toContain(
      'differing: servers, maxResultChars, approve, config',
    );
    expect(first.listServers()).toEqual(['x']);
  });

  it('a first call without options makes a later call with options an error, not a no-op', async () => {
    const first = McpManager.getInstance();
    expect((await refusal(() => McpManager.getInstance({ cwd: project }), 'INVALID_STATE')).message).toContain(
      'differing: config',
    );
    await McpManager.resetInstance();
    expect(McpManager.getInstance({ cwd: project, config: { userConfigPath: false } })).not.toBe(first);
  });
});
