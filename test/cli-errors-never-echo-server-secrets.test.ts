/**
 * `mcpwire` against a server that repeats its credential (given with `-e API_TOKEN=…`) in a
 * JSON-RPC error: the error line and the `--json` envelope show `***`, for a failed call and for
 * a refused connect alike; the exit codes stay those of the error.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, ROOT, runCli } from './support/cli.js';

const CARELESS = path.join(ROOT, 'test/support/echoes-secrets-server.mjs');
const TOKEN = 'sk-live-5e8d1c0b9a';

beforeAll(() => requireBuiltCli());

describe('mcpwire and a server that echoes its -e secret', () => {
  it('a failed call prints Bearer *** on stderr and exits 5', async () => {
    const run = await runCli(['call', 'whoami', '-e', `API_TOKEN=${TOKEN}`, '--', process.execPath, CARELESS]);
    expect(run.code).toBe(5);
    expect(run.stderr).toBe(
      'error: server "echoes-secrets-server": tools/call failed: bad token Bearer *** (-32000)\n',
    );
  });

  it('--json: neither the message nor the error data holds it', async () => {
    const run = await runCli([
      'call',
      'whoami',
      '--json',
      '-e',
      `API_TOKEN=${TOKEN}`,
      '--',
      process.execPath,
      CARELESS,
    ]);
    expect(run.code).toBe(5);
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.json()).toMatchObject({
      ok: false,
      error: { code: 'SERVER_ERROR', rpcCode: -32000, data: { received: 'Bearer ***' } },
    });
  });

  it('a refused initialize prints no secret either', async () => {
    const run = await runCli([
      'tools',
      '-e',
      `API_TOKEN=${TOKEN}`,
      '--',
      process.execPath,
      CARELESS,
      '--refuse-initialize',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Bearer ***');
    expect(run.stderr + run.stdout).not.toContain(TOKEN);
  });
});
