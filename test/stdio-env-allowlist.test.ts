/**
 * A stdio server gets a safe allowlist of this process's environment plus its configured
 * variables — never the rest (API keys) unless the caller asks for the whole environment.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServerEnv, POSIX_ALLOWLIST, WINDOWS_ALLOWLIST } from '../src/transport/stdio/stdio-env.js';
import { type StdioServerSpec, type StdioTransportOptions, StdioTransport } from '../src/transport/stdio/stdio.js';
import { FIXTURES } from './support/processes.js';

const SECRET = 'MCPWIRE_TEST_SECRET';

describe('buildServerEnv', () => {
  const base = {
    HOME: '/home/u',
    PATH: '/bin',
    LANG: 'C.UTF-8',
    AWS_SECRET_ACCESS_KEY: 'x',
    TEMP: 'C:\\t',
    SYSTEMROOT: 'C:\\Windows',
  };

  it('keeps only the POSIX allowlist, then adds the configured variables', () => {
    expect(buildServerEnv({ EXTRA: '1' }, false, base, 'linux')).toEqual({
      HOME: '/home/u',
      PATH: '/bin',
      LANG: 'C.UTF-8',
      EXTRA: '1',
    });
  });

  it('keeps only the Windows allowlist on win32', () => {
    expect(buildServerEnv(undefined, false, base, 'win32')).toEqual({
      PATH: '/bin',
      TEMP: 'C:\\t',
      SYSTEMROOT: 'C:\\Windows',
    });
  });

  it('lets configured variables override inherited ones', () => {
    expect(buildServerEnv({ PATH: '/opt/bin' }, false, base, 'linux').PATH).toBe('/opt/bin');
  });

  it('passes the whole environment with inheritAll', () => {
    expect(buildServerEnv({ EXTRA: '1' }, true, base, 'linux')).toEqual({ ...base, EXTRA: '1' });
  });

  it('drops inherited values that are shell functions', () => {
    expect(buildServerEnv(undefined, false, { PATH: '/bin', TERM: '() { :; }; echo pwned' }, 'linux')).toEqual({
      PATH: '/bin',
    });
  });

  it('lists the documented names', () => {
    expect([...POSIX_ALLOWLIST].sort()).toEqual([
      'HOME',
      'LANG',
      'LC_ALL',
      'LOGNAME',
      'PATH',
      'SHELL',
      'TERM',
      'TMPDIR',
      'USER',
    ]);
    expect(WINDOWS_ALLOWLIST).toEqual(
      expect.arrayContaining(['APPDATA', 'PATH', 'PATHEXT', 'SYSTEMROOT', 'USERPROFILE', 'COMSPEC']),
    );
  });
});

describe('the environment a real server sees', () => {
  const open: StdioTransport[] = [];
  beforeEach(() => {
    process.env[SECRET] = 'hunter2';
  });
  afterEach(async () => {
    delete process.env[SECRET];
    await Promise.all(open.splice(0).map((t) => t.close()));
  });

  async function serverEnv(
    spec: Partial<StdioServerSpec> = {},
    options: StdioTransportOptions = {},
  ): Promise<Record<string, string>> {
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'echo.mjs')], ...spec },
      options,
    );
    open.push(t);
    const reply = new Promise<unknown>((resolve) => t.onMessage(resolve));
    await t.send({ jsonrpc: '2.0', id: 1, method: 'env' });
    return ((await reply) as { result: { env: Record<string, string> } }).result.env;
  }

  it('sees PATH and the configured variables, not a secret of this process', async () => {
    const env = await serverEnv({ env: { EXTRA: 'yes' } });
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.EXTRA).toBe('yes');
    expect(env[SECRET]).toBeUndefined();
  });

  it('sees the whole environment with spec.inheritEnv', async () => {
    const env = await serverEnv({ inheritEnv: true, env: { EXTRA: 'yes' } });
    expect(env[SECRET]).toBe('hunter2');
    expect(env.EXTRA).toBe('yes');
  });

  it('lets options.inheritEnv override the spec', async () => {
    const env = await serverEnv({ inheritEnv: true }, { inheritEnv: false });
    expect(env[SECRET]).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
  });
});
