/**
 * Permissions through the manager, with rules in real config files: a denied call fails with
 * PERMISSION_DENIED and never reaches the server (the server records every line it receives),
 * `ask` goes to the host's hook (or is denied without one), denied tools can be hidden, `explain`
 * names the rule and file, and a rule that can never match is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCommand } from '../src/manager/commands.js';
import { McpManager, type PermissionRequest } from '../src/manager/mcp-manager.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { readJsonl } from './support/jsonl.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
let root: string;
let user: string;
let project: string;
let received: string;
let manager: McpManager | undefined;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-perm-'));
  project = path.join(root, 'project');
  mkdirSync(project);
  user = path.join(root, 'user.json');
  received = path.join(root, 'received.jsonl');
  writeFileSync(
    user,
    JSON.stringify({
      mcpServers: { s: { command: process.execPath, args: [SCRIPTED, '--record', received] } },
      permissions: { deny: ['mcp__s__crash'], ask: ['mcp__s__add'], allow: ['mcp__s__echo', 'mcp__nowhere__x'] },
    }),
  );
  writeFileSync(
    path.join(project, '.mcp.json'),
    JSON.stringify({ permissions: { allow: ['mcp__s__crash'], deny: ['mcp__s__fails'] } }),
  );
});
afterEach(async () => {
  [manager] = await endAll([manager, 'disconnectAll']);
  rmSync(root, { recursive: true, force: true });
});

const calls = () =>
  (existsSync(received) ? readJsonl<{ method?: string; params?: { name?: string } }>(received) : [])
    .filter((m) => m.method === 'tools/call')
    .map((m) => m.params?.name);

describe('McpManager permissions', () => {
  it('deny wins over a project allow, and a denied call never reaches the server', async () => {
    manager = McpManager.create({ config: { cwd: project, userConfigPath: user, env: {} } });
    await manager.connectAll();
    await expect(manager.callTool('mcp__s__crash', {})).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(`rule "mcp__s__crash" in ${user}`),
    });
    await expect(manager.callTool('mcp__s__fails', {})).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(path.join(project, '.mcp.json')),
    });
    expect((await manager.callTool('mcp__s__echo', { text: 'ok' })).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(calls()).toEqual(['echo']);
    expect(manager.isConnected('s')).toBe(true);
  });

  it('ask: no hook ⇒ denied with a clear error; the hook decides otherwise and sees the call', async () => {
    manager = McpManager.create({ config: { cwd: project, userConfigPath: user, env: {} } });
    await manager.connectAll();
    await expect(manager.callTool('mcp__s__add', { a: 1, b: 2 })).rejects.toThrow(
      /needs the user's approval .*no ask hook is configured/,
    );
    await manager.disconnectAll();

    const asked: PermissionRequest[] = [];
    let answer = false;
    manager = McpManager.create({
      config: { cwd: project, userConfigPath: user, env: {} },
      ask: async (request) => {
        asked.push(request);
        return answer;
      },
    });
    await manager.connectAll();
    await expect(manager.callTool('mcp__s__add', { a: 1, b: 2 })).rejects.toThrow('was refused by the user');
    answer = true;
    expect((await manager.callTool('mcp__s__add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({
      name: 'mcp__s__add',
      server: 's',
      tool: 'add',
      arguments: { a: 1, b: 2 },
      verdict: { decision: 'ask', rule: { pattern: 'mcp__s__add', file: user } },
    });
    expect(calls()).toEqual(['add']);
  });

  it('hides denied tools when asked to; explain and /mcp explain name the rule and its file; unreachable rules are reported', async () => {
    manager = McpManager.create({ config: { cwd: project, userConfigPath: user, env: {} }, hideDeniedTools: true });
    await manager.connectAll();
    const names = manager.getAllTools().map((t) => t.name);
    expect(names).toContain('mcp__s__echo');
    expect(names).not.toContain('mcp__s__crash');
    expect(names).not.toContain('mcp__s__fails');
    // Hidden from the model, still refused clearly if called by name.
    await expect(manager.callTool('mcp__s__crash', {})).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });

    expect(manager.explain('mcp__s__crash').split('\n')[0]).toBe(
      `mcp__s__crash: deny by rule "mcp__s__crash" in ${user} (user)`,
    );
    expect(manager.explain('mcp__s__crash')).toContain(
      `allow mcp__s__crash  (${path.join(project, '.mcp.json')}, project)`,
    );
    const answer = await handleCommand(manager, '/mcp explain mcp__s__add');
    expect(answer).toMatchObject({ ok: true, text: `mcp__s__add: ask by rule "mcp__s__add" in ${user} (user)` });

    const warnings = manager.getStatus().configWarnings;
    expect(warnings).toContain(
      `${user}: allow rule "mcp__nowhere__x" names server "nowhere", which is not configured (configured: s)`,
    );
    expect(warnings).toContain(
      `${path.join(project, '.mcp.json')}: allow rule "mcp__s__crash" can never apply: deny rule "mcp__s__crash" in ${user} covers every tool it matches`,
    );
  });
});
