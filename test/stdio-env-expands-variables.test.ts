/**
 * `${VAR}` in a stdio server's `env` is expanded when the transport is created — not only when a
 * config file is loaded — with the config loader's syntax and its error for an unset variable;
 * values that went through the config loader already are not expanded a second time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { loadConfig } from '../src/manager/config/load-config.js';
import { connectServer } from '../src/manager/servers/connect-target.js';
import { isMcpError } from '../src/protocol/errors.js';
import { escapeVariables, expandVariables } from '../src/transport/variables.js';
import { FIXTURES } from './support/processes.js';

const SERVER = path.join(FIXTURES, 'stdio', 'reports-env.mjs');
const VAR = 'MCPWIRE_TEST_HOME_LIKE';
const clients: McpClient[] = [];
let dir: string | undefined;

beforeEach(() => {
  process.env[VAR] = '/home/like/this';
});
afterEach(async () => {
  delete process.env[VAR];
  await Promise.all(clients.splice(0).map((c) => c.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function envSeenBy(client: McpClient): Promise<Record<string, string>> {
  clients.push(client);
  const result = await client.callTool('env', {});
  return JSON.parse((result.content[0] as { text: string }).text) as Record<string, string>;
}

describe('McpClient.connect with a stdio env', () => {
  it('expands ${VAR}, ${env:VAR} and ${VAR:-default} from this process, and keeps $${…} literal', async () => {
    const client = await McpClient.connect(
      {
        command: process.execPath,
        args: [SERVER],
        env: { X: `\${${VAR}}`, Y: `pre-\${env:${VAR}}-post`, Z: '${MCPWIRE_TEST_UNSET:-fallback}', W: `$\${${VAR}}` },
      },
      { name: 'env', era: 'legacy' },
    );
    const env = await envSeenBy(client);
    expect(env).toMatchObject({ X: '/home/like/this', Y: 'pre-/home/like/this-post', Z: 'fallback', W: `\${${VAR}}` });
  });

  it('an unset variable without a default: CONFIG_INVALID naming the server, the key and the variable, and nothing starts', async () => {
    const lines: string[] = [];
    const error = await McpClient.connect(
      { command: process.execPath, args: [SERVER], env: { TOKEN: '${MCPWIRE_TEST_UNSET}' } },
      { name: 'env', onStderr: (l) => lines.push(l) },
    ).catch((e: unknown) => e);
    expect(isMcpError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toBe(
      'server "env": env.TOKEN: variable MCPWIRE_TEST_UNSET is not set (write ${MCPWIRE_TEST_UNSET:-default} for a default)',
    );
    expect(lines).toEqual([]);
  });
});

describe('a server from a config file', () => {
  it('gets the values the config loader expanded, once: a literal $${…} and a variable whose value holds ${…} arrive as written', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-env-'));
    const file = path.join(dir, 'servers.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          env: {
            command: process.execPath,
            args: [SERVER],
            env: { A: `\${${VAR}}`, B: `$\${${VAR}}`, C: '${MCPWIRE_TEST_TRICKY}' },
          },
        },
      }),
    );
    const loaded = await loadConfig({
      cwd: dir,
      homeDir: dir,
      configPaths: [file],
      env: { [VAR]: '/from/config', MCPWIRE_TEST_TRICKY: 'pa${ss}word' },
    });
    const spec = loaded.servers.find((s) => s.name === 'env')!;
    const env = await envSeenBy(await connectServer(spec, { era: 'legacy' }));
    expect(env).toMatchObject({ A: '/from/config', B: `\${${VAR}}`, C: 'pa${ss}word' });
  });
});

describe('escapeVariables', () => {
  it('is undone exactly by expandVariables, whatever the text', () => {
    const texts = [
      'plain',
      '${A}',
      '$${A}',
      '$$${A}',
      '${a${b}',
      '${unterminated',
      '}${',
      'x${A}y${B:-z}',
      '${env:A}',
      '$',
      '${}',
      '$ {A}',
    ];
    for (const text of texts)
      expect(expandVariables(escapeVariables(text), { A: 'a', B: 'b' })).toEqual({ ok: true, text, values: [] });
    const reference = fc.string({ unit: fc.constantFrom('$', '{', '}', 'A', 'B', ':', '-', 'e', 'n', 'v', '_') });
    fc.assert(
      fc.property(
        reference,
        (text) =>
          void expect(expandVariables(escapeVariables(text), { A: 'a', B: 'b' })).toEqual({
            ok: true,
            text,
            values: [],
          }),
      ),
    );
  });
});
