/**
 * A broken config is a `ConfigError` (`CONFIG_INVALID`) whose typed fields say where: the file,
 * line and column of a syntax error, the server and the field of a bad entry, the variable that is
 * not set. The message still leads with the place (`file:line:column: server "x": …`), and the
 * facts are in `toJSON`, never in the peer's `data`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/manager/config/load-config.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { ConfigError } from '../src/protocol/errors.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-config-errors-');

const options = () => ({ cwd: dirs.project, homeDir: dirs.home, env: {} });

/** Writes `mcpServers` as the project's `.mcp.json`, loads the config and expects one ConfigError: it, and the file. */
async function theOneError(mcpServers: Record<string, unknown>): Promise<{ file: string; error: ConfigError }> {
  const file = path.join(dirs.project, '.mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers }));
  const { errors } = await loadConfig(options());
  expect(errors).toHaveLength(1);
  expect(errors[0]).toBeInstanceOf(ConfigError);
  return { file, error: errors[0] as ConfigError };
}

describe('ConfigError facts', () => {
  it('a JSON syntax error: file, line and column', async () => {
    const file = path.join(dirs.project, '.mcp.json');
    writeFileSync(file, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n  oops\n}\n');
    const { errors } = await loadConfig(options());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect(errors[0]).toMatchObject({
      code: 'CONFIG_INVALID',
      file,
      line: 4,
      column: 3,
      server: undefined,
      data: undefined,
    });
    expect(errors[0]!.message).toBe(`${file}:4:3: ${errors[0]!.reason}`);
    expect(errors[0]!.reason).toMatch(/^invalid JSON: /);
  });

  it('an unset variable: file, server, field and variable', async () => {
    const { file, error } = await theOneError({
      api: { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
    });
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      file,
      server: 'api',
      field: 'headers.Authorization',
      variable: 'TOKEN',
      data: undefined,
    });
    expect(error.message).toBe(
      `${file}: server "api": headers.Authorization: variable TOKEN is not set (write \${TOKEN:-default} for a default)`,
    );
    expect(error.toJSON()).toMatchObject({
      file,
      server: 'api',
      field: 'headers.Authorization',
      variable: 'TOKEN',
    });
  });

  it('a bad field: file, server and the field path', async () => {
    const { file, error } = await theOneError({ db: { command: 'db-server', toolTimeoutMs: '2m' } });
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', file, server: 'db', field: 'toolTimeoutMs' });
    expect(error.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: server "db": toolTimeoutMs `),
    );
  });

  it('a missing envFile: file, server and field envFile', async () => {
    const { file, error } = await theOneError({ db: { command: 'db-server', envFile: 'nope.env' } });
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', file, server: 'db', field: 'envFile' });
    expect(error.reason).toMatch(/^envFile .*nope\.env: no such file$/);
  });

  it('a hand-written server definition: the server and the field, no file', () => {
    const error = (() => {
      try {
        McpManager.create({ servers: [{ name: 'w', transport: 'http' } as never] });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', server: 'w', field: 'url', file: undefined });
    expect((error as Error).message).toMatch(
      /^server "w": McpManager options\.servers\[0\]: an http server needs a "url"$/,
    );
  });
});
