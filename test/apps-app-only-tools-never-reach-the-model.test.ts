/**
 * MCP Apps (SEP-1865) on the host side: a tool whose `_meta.ui.visibility` lacks `model` is for
 * its server's own view only, and a host MUST keep it out of the model's tool list. Through a real
 * manager over a config file and a stdio kit server: the app-only `refresh` is not in
 * `getAllTools()`, the LLM exports, `/mcp tools`, nor the names `execute`/`callTool` take (the
 * same "tool not found" as a name no server has, the ask hook never consulted); the model+app
 * `show_chart` is there; the server's own client still lists and calls `refresh`; `mcpwire tools`
 * tags it `[app]`. `apps: true` makes every managed client declare the ui extension.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools } from '../src/llm/tool-export.js';
import { handleCommand } from '../src/manager/commands.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagerOptions, PermissionRequest } from '../src/manager/mcp-manager.js';
import { McpError } from '../src/protocol/errors.js';
import { UI_MIME_TYPE } from '../src/protocol/extensions/apps-types.js';
import { EXTENSION_IDS } from '../src/protocol/extensions/ids.js';
import { ROOT } from './support/cli.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';

const FIXTURE = path.join(ROOT, 'test/support/kit-apps-tools-server.ts');
/** The fixture as a stdio command: this Node with tsx, from the repository root (where tsx resolves). */
const SERVER = { command: process.execPath, args: ['--import', 'tsx', FIXTURE], cwd: ROOT };
const MODEL_TOOLS = ['mcp__srv__client_extensions', 'mcp__srv__show_chart'];

const tmp = useTempDir('mcpwire-app-only-');
let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'close'])));

/**
 * A manager reading one explicit config file in the test's directory that names the fixture as
 * `srv` (and holds `more`, e.g. a `permissions` block), connected.
 */
async function connected(options: Omit<ManagerOptions, 'config'> = {}, more: object = {}): Promise<McpManager> {
  const file = path.join(tmp.dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { srv: SERVER }, ...more }));
  manager = McpManager.create({
    ...options,
    config: { configPaths: [file], userConfigPath: false, project: false, homeDir: tmp.dir, cwd: tmp.dir },
  });
  expect(await manager.connectAll()).toEqual({ connected: ['srv'], failed: [] });
  return manager;
}

/** What a call of `name` through the manager rejects with. */
async function refusal(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

function text(result: { content: Array<{ type: string; text?: string }> }): string | undefined {
  return result.content[0]?.text;
}

describe('an app-only tool (visibility ["app"])', () => {
  it('is not in the catalogue, the LLM exports or /mcp tools; the model+app tool is', async () => {
    const m = await connected();
    const names = m
      .getAllTools()
      .map((t) => t.name)
      .sort();
    expect(names).toEqual(MODEL_TOOLS);
    expect(m.getAllTools().find((t) => t.tool === 'show_chart')?.definition._meta).toEqual({
      ui: { resourceUri: 'ui://charts/view.html', visibility: ['model', 'app'] },
      'ui/resourceUri': 'ui://charts/view.html',
    });

    const all = m.getAllTools();
    expect(
      toOpenAITools(all)
        .tools.map((t) => t.function.name)
        .sort(),
    ).toEqual(MODEL_TOOLS);
    expect(
      toAnthropicTools(all)
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(MODEL_TOOLS);
    expect(
      toGeminiFunctionDeclarations(all)
        .functionDeclarations.map((t) => t.name)
        .sort(),
    ).toEqual(MODEL_TOOLS);

    const listed = await handleCommand(m, '/mcp tools');
    expect(listed.ok).toBe(true);
    expect(listed.text).toContain('mcp__srv__show_chart');
    expect(listed.text).toContain('srv (2)');
    expect(listed.text).not.toContain('refresh');
    expect(m.getStatus().servers.find((s) => s.name === 'srv')).toMatchObject({ status: 'connected', toolCount: 2 });
  });

  it('is refused by execute and callTool as a name no server has, before any permission prompt', async () => {
    const asked: string[] = [];
    const m = await connected(
      {
        ask: (request: PermissionRequest) => {
          asked.push(request.name);
          return true;
        },
      },
      { permissions: { defaultMode: 'ask' } },
    );

    const appOnly = await refusal(m.execute('mcp__srv__refresh'));
    const missing = await refusal(m.execute('mcp__srv__reload'));
    expect(appOnly.code).toBe('INVALID_ARGUMENT');
    expect(appOnly.message).toContain('tool not found: mcp__srv__refresh');
    expect({ code: appOnly.code, message: appOnly.message.replace('refresh', 'NAME') }).toEqual({
      code: missing.code,
      message: missing.message.replace('reload', 'NAME'),
    });
    const viaCallTool = await refusal(m.callTool('mcp__srv__refresh', {}));
    expect(viaCallTool.message).toBe(appOnly.message);
    expect(m.resolveToolName('mcp__srv__refresh')).toBeUndefined();

    const shown = await m.execute('mcp__srv__show_chart');
    expect(shown.text).toBe('chart shown');
    expect(asked).toEqual(['mcp__srv__show_chart']);
  });

  it('is still listed and called by the server’s own client, for its app', async () => {
    const m = await connected();
    const client = m.getConnection('srv');
    expect(client).toBeDefined();
    const tools = await client!.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['client_extensions', 'refresh', 'show_chart']);
    expect(tools.find((t) => t.name === 'refresh')?._meta).toEqual({
      ui: { resourceUri: 'ui://charts/view.html', visibility: ['app'] },
      'ui/resourceUri': 'ui://charts/view.html',
    });
    expect(text(await client!.callTool('refresh', {}))).toBe('refreshed');
  });

  it('is dropped by the LLM exports from any list, not only the catalogue', async () => {
    const m = await connected();
    const raw = (await m.getConnection('srv')!.listTools()).map((definition) => ({
      name: definition.name,
      definition,
    }));
    const own = ['client_extensions', 'show_chart'];
    expect(
      toOpenAITools(raw)
        .tools.map((t) => t.function.name)
        .sort(),
    ).toEqual(own);
    expect(
      toAnthropicTools(raw)
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(own);
    expect(
      toGeminiFunctionDeclarations(raw)
        .functionDeclarations.map((t) => t.name)
        .sort(),
    ).toEqual(own);
  });

  it('is left out of tools a host registers itself', async () => {
    const m = await connected();
    const tools = await m.getConnection('srv')!.listTools();
    m.registerServerTools('fed', tools);
    expect(
      m
        .getAllTools()
        .filter((t) => t.server === 'fed')
        .map((t) => t.tool)
        .sort(),
    ).toEqual(['client_extensions', 'show_chart']);
  });

  it('is tagged [app] by mcpwire tools, which talks to the server directly', async () => {
    const io = cliIO();
    const exit = await main(['tools', '--', SERVER.command, ...SERVER.args], io);
    expect({ code: exit.code, stderr: io.err() }).toEqual({ code: 0, stderr: '' });
    const rows = io.out().split('\n');
    expect(rows.find((row) => row.startsWith('refresh'))).toMatch(/^refresh \[app\]\s/);
    expect(rows.find((row) => row.startsWith('show_chart'))).toMatch(/^show_chart\s+Shows a chart/);
    expect(io.out()).not.toContain('show_chart [app]');
  });
});

describe('ManagerOptions.apps', () => {
  it('is off by default: managed clients declare no ui extension', async () => {
    const m = await connected();
    expect(JSON.parse((await m.execute('mcp__srv__client_extensions')).text)).toEqual({});
  });

  it('true: every managed client declares the ui extension with the MCP App MIME type', async () => {
    const m = await connected({ apps: true });
    expect(JSON.parse((await m.execute('mcp__srv__client_extensions')).text)).toEqual({
      [EXTENSION_IDS.ui]: { mimeTypes: [UI_MIME_TYPE] },
    });
    expect(m.getConnection('srv')!.serverExtensions).toHaveProperty([EXTENSION_IDS.ui]);
    // Declaring the extension does not let app-only tools into the catalogue.
    expect(
      m
        .getAllTools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(MODEL_TOOLS);
  });

  it('keeps a ui declaration the client options already make, beside the other extensions', async () => {
    const m = await connected({
      apps: true,
      client: { extensions: { [EXTENSION_IDS.ui]: { mimeTypes: ['text/html;profile=mcp-app', 'x/other'] } } },
    });
    expect(JSON.parse((await m.execute('mcp__srv__client_extensions')).text)).toEqual({
      [EXTENSION_IDS.ui]: { mimeTypes: ['text/html;profile=mcp-app', 'x/other'] },
    });
  });

  it('must be a boolean', () => {
    expect(() => McpManager.create({ apps: 'yes' as unknown as boolean })).toThrow(
      'McpManager options: "apps" must be true or false',
    );
  });
});

/** An in-process CLI run's streams, its cache under the test's directory. */
function cliIO(): CliIO & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { HOME: tmp.dir, XDG_CACHE_HOME: path.join(tmp.dir, 'cache'), XDG_CONFIG_HOME: path.join(tmp.dir, 'config') },
    cwd: ROOT,
    interactive: false,
    color: false,
    columns: 160,
    out: () => out,
    err: () => err,
  };
}
