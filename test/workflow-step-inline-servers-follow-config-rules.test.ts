/**
 * A server written inline in a workflow step is read by the config layer's rules: `command` as
 * an array, `${VAR}` expanded (from the runner's `env`) in headers and the command line, the
 * expanded values kept out of every error. A failure to connect is reported like a failed call:
 * with the tool and the server.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpStepRunner } from '../src/manager/workflow-step.js';
import { McpError } from '../src/protocol/errors.js';
import { failureOf } from './support/failure.js';
import { json, legacyServer, rpcError, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const TOKEN = 'test-token-5f3a9c';

let runner: McpStepRunner | undefined;
let fixture: HttpFixture | undefined;
afterEach(async () => void ([runner, fixture] = await endAll([runner, 'reset'], [fixture, 'close'])));

function failure(promise: Promise<unknown>): Promise<McpError> {
  return failureOf(promise, McpError, {});
}

describe('inline step servers', () => {
  it('take command as an array (with args after it)', async () => {
    runner = new McpStepRunner();
    const stored = await runner.run(
      {
        server: { command: [process.execPath, SCRIPTED], args: ['--version', '2025-06-18'] },
        tool: 'echo',
        arguments: { text: 'from an array' },
        resultKey: 'r',
      },
      {},
    );
    expect(stored.text).toBe('from an array');
    expect(stored.server).toBe(path.basename(process.execPath));
  });

  it('expand ${VAR} in headers from the runner env, send the value, and keep it out of errors', async () => {
    fixture = await startHttpFixture(
      (seen, res) =>
        seen.rpc === 'tools/call' && (seen.json?.params as { name?: string }).name === 'leak'
          ? json(res, rpcError(seen, -32000, `refused ${String(seen.headers.authorization)}`))
          : false,
      legacyServer({
        tools: [
          { name: 'echo', inputSchema: { type: 'object' } },
          { name: 'leak', inputSchema: { type: 'object' } },
        ],
      }),
    );
    runner = new McpStepRunner({ env: { TEST_TOKEN: TOKEN } });
    const server = { name: 'api', url: fixture.url, headers: { Authorization: 'Bearer ${TEST_TOKEN}' } };
    const stored = await runner.run({ server, tool: 'echo', arguments: { text: 'hi' }, resultKey: 'r' }, {});
    expect(stored.text).toBe('echo:hi');
    expect(
      fixture.requests.filter((r) => r.method === 'POST').every((r) => r.headers.authorization === `Bearer ${TOKEN}`),
    ).toBe(true);

    const leak = await failure(runner.run({ server, tool: 'leak', resultKey: 'r' }, {}));
    expect(leak.message).toBe(
      'server "api": tools/call tool "leak" failed: tools/call failed: refused Bearer *** (-32000)',
    );
    expect(leak.message).not.toContain(TOKEN);
  });

  it('an unset variable, an unknown key or a bad command shape is a CONFIG_INVALID naming it', async () => {
    runner = new McpStepRunner({ env: {} });
    const unset = await failure(
      runner.run(
        {
          server: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${TEST_TOKEN}' } },
          tool: 'echo',
          resultKey: 'r',
        },
        {},
      ),
    );
    expect(unset.code).toBe('CONFIG_INVALID');
    expect(unset.message).toContain(
      'workflow step: server "inline": headers.Authorization: variable TEST_TOKEN is not set',
    );
    const unknown = await failure(
      runner.run(
        { server: { command: process.execPath, argz: [SCRIPTED] } as never, tool: 'echo', resultKey: 'r' },
        {},
      ),
    );
    expect(unknown.message).toBe('workflow step: server "inline": unknown key "argz" (did you mean "args"?)');
    const empty = await failure(runner.run({ server: { command: [] }, tool: 'echo', resultKey: 'r' }, {}));
    expect(empty.message).toContain('command must be a string or a non-empty array');
  });

  it('a server that cannot be started fails the step naming the tool and the server', async () => {
    runner = new McpStepRunner();
    const error = await failure(
      runner.run(
        { server: { name: 'db', command: ['/nonexistent/db-server', '--port', '5'] }, tool: 'query', resultKey: 'r' },
        {},
      ),
    );
    expect(error.code).toBe('SPAWN_FAILED');
    expect(error.server).toBe('db');
    expect(error.message).toMatch(/^server "db": connect for tool "query" failed: .*\/nonexistent\/db-server/);
    expect(error.cause).toMatchObject({ code: 'SPAWN_FAILED' });
  });
});
