/**
 * `mcpwire proxy --help` is right for a project install: the `.mcp.json` entry it shows, taken
 * from the help as printed and started by a host the way Claude Code starts a project's servers
 * (no shell, in the project directory, no `mcpwire` on PATH, npm offline), proxies the reference
 * server and records the traffic; and the OTLP options it says the proxy takes are listed
 * there, with their values, and offered by completion.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { connectClient } from './support/client.js';
import { installInProject, OFFLINE_NPM_ENV } from './support/project-install.js';
import { eventually } from './support/wait.js';

let root: string;
let help: string;

beforeAll(async () => {
  requireBuiltCli();
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-proxy-help-'));
  const run = await runCli(['proxy', '--help']);
  expect(run.code).toBe(0);
  help = run.stdout;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The JSON of the help's "In a host's config" paragraph. */
function snippet(): { mcpServers: Record<string, { command: string; args: string[] }> } {
  const paragraph = help.split(/\n\s*\n/).find((p) => p.startsWith("In a host's config"));
  expect(paragraph).toBeDefined();
  const json = paragraph!.slice(paragraph!.indexOf('{'));
  return JSON.parse(json) as ReturnType<typeof snippet>;
}

describe('proxy --help', () => {
  it('shows a host entry that runs as written in a project install', async () => {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    mkdirSync(home);
    mkdirSync(project);
    installInProject(project, home, ['@modelcontextprotocol/server-everything']);
    const [name, entry] = Object.entries(snippet().mcpServers)[0]!;
    const trace = path.join(root, 'everything.jsonl');
    const args = entry.args.map((arg) => (arg.endsWith('.jsonl') ? trace : arg));
    expect(entry.command).not.toBe('mcpwire');
    const client = await connectClient(
      { command: entry.command, args, cwd: project, env: { HOME: home, ...OFFLINE_NPM_ENV } },
      { name, connectTimeoutMs: 60_000 },
    );
    expect((await client.listTools()).map((tool) => tool.name)).toContain('get-sum');
    await client.close();
    const methods = await eventually(
      () => {
        const records = readFileSync(trace, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { method?: string });
        const found = records.map((r) => r.method);
        return found.includes('tools/list') ? found : undefined;
      },
      { what: 'the proxy to record tools/list' },
    );
    expect(methods).toContain('initialize');
  }, 90_000);

  it('lists the OTLP options it says the proxy takes, and completion offers them', async () => {
    expect(help).toMatch(/^ {2}--otlp-endpoint URL {6}send each request's span live/m);
    expect(help).toMatch(/^ {4}--otlp-header 'K: V' {3}a header for it/m);
    expect(help).not.toContain('see mcpwire --help');
    const complete = await runCli(['__complete', '2', 'mcpwire', 'proxy', '--otlp']);
    expect(complete.stdout.split('\n').filter(Boolean).sort()).toEqual(['--otlp-endpoint', '--otlp-header']);
  });
});
