/**
 * A server that repeats its credential back (a token from its `env`, an `Authorization` header)
 * in an error message, its error data, stdout junk or its dying words on stderr must not get the
 * manager to hand that credential on: every error the manager surfaces (callTool, execute,
 * connect, connectAll, status events and `lastError`, the workflow step), its `diagnostic` events
 * and its debug lines show `***` instead, while code, rpcCode, server, method and the cause chain
 * stay as useful as before. Secrets are the values that came from variables, the values of
 * credential headers and of secret-named env keys, written by hand or in a config file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { StatusChange } from '../src/manager/servers/slot-state.js';
import { McpStepRunner } from '../src/manager/workflow-step.js';
import { McpError } from '../src/protocol/errors.js';
import { cleanUp, type HttpFixture, json, legacyServer, rpcError, startHttpFixture } from './support/http-fixture.js';
import { eventually } from './support/processes.js';
import { endAll } from './support/end-all.js';

const CARELESS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/echoes-secrets-server.mjs');
const node = process.execPath;
const TOKEN = 'sk-live-7f3a9c2e1b';

/** Everything an error carries, as a logger would print it: message, stack, fields, data, causes. */
const everything = (value: unknown) => inspect(value, { depth: 20 });

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected a rejection');
}

let manager: McpManager | undefined;
let fixture: HttpFixture | undefined;
afterEach(async () => {
  [manager] = await endAll([manager, 'disconnectAll']);
  [, fixture] = await cleanUp(undefined, fixture);
});

/** A manager with the careless server defined in a config, its token from a variable. */
function fromConfig(args: string[] = []): McpManager {
  return McpManager.create({
    config: {
      userConfigPath: false,
      project: false,
      inline: [
        {
          mcpServers: {
            careless: {
              command: node,
              args: [CARELESS, ...args],
              env: { API_TOKEN: '${CARELESS_TOKEN}' },
              restart: 'never',
            },
          },
        },
      ],
      env: { CARELESS_TOKEN: TOKEN },
    },
  });
}

describe('a server that echoes its token in a JSON-RPC error', () => {
  it('callTool and execute reject with the token scrubbed from message, data, stack and causes, code and fields kept', async () => {
    const lines: string[] = [];
    manager = McpManager.create({
      ...{
        config: {
          userConfigPath: false,
          project: false,
          inline: [
            { mcpServers: { careless: { command: node, args: [CARELESS], env: { API_TOKEN: '${CARELESS_TOKEN}' } } } },
          ],
          env: { CARELESS_TOKEN: TOKEN },
        },
      },
      logger: (line) => lines.push(line),
    });
    await manager.connectAll();
    for (const run of [
      () => manager!.callTool('mcp__careless__whoami', {}),
      () => manager!.execute('mcp__careless__whoami', {}),
    ]) {
      const error = await rejection(run());
      expect(error).toMatchObject({
        code: 'SERVER_ERROR',
        rpcCode: -32000,
        server: 'careless',
        method: 'tools/call',
        data: { received: 'Bearer ***' },
      });
      expect(error.message).toContain('bad token Bearer ***');
      expect(everything(error)).not.toContain(TOKEN);
    }
    expect(lines.some((line) => line.includes('bad token Bearer ***'))).toBe(true);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('a token written literally under a secret-looking env name is scrubbed too', async () => {
    manager = McpManager.create({
      servers: [{ name: 'careless', transport: 'stdio', command: node, args: [CARELESS], env: { API_TOKEN: TOKEN } }],
    });
    await manager.connectAll();
    const error = await rejection(manager.callTool('mcp__careless__whoami', {}));
    expect(error.message).toBe('server "careless": tools/call failed: bad token Bearer *** (-32000)');
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('the workflow step fails with the token scrubbed, from its error and its causes', async () => {
    const runner = new McpStepRunner({ env: { CARELESS_TOKEN: TOKEN } });
    try {
      const error = await rejection(
        runner.run(
          {
            server: { name: 'careless', command: [node, CARELESS], env: { API_TOKEN: '${CARELESS_TOKEN}' } },
            tool: 'whoami',
            resultKey: 'r',
          },
          {},
        ),
      );
      expect(error).toMatchObject({ code: 'SERVER_ERROR', server: 'careless', method: 'tools/call' });
      expect(everything(error)).not.toContain(TOKEN);
    } finally {
      await runner.reset();
    }
  });
});

describe('a server that echoes its token in a tool result', () => {
  it("execute's text for the model and the workflow step's stored text show ***; the result itself stays the server's", async () => {
    manager = fromConfig();
    await manager.connectAll();
    const executed = await manager.execute('mcp__careless__refused', {});
    expect(executed.isError).toBe(true);
    expect(executed.text).toContain('token *** was refused');
    expect(executed.text).not.toContain(TOKEN);
    expect(JSON.stringify(executed.result)).toContain(TOKEN);

    const runner = new McpStepRunner({ env: { CARELESS_TOKEN: TOKEN } });
    try {
      const context: Record<string, unknown> = {};
      const error = await rejection(
        runner.run(
          {
            server: { name: 'careless', command: [node, CARELESS], env: { API_TOKEN: '${CARELESS_TOKEN}' } },
            tool: 'refused',
            resultKey: 'r',
          },
          context,
        ),
      );
      expect(everything(error)).not.toContain(TOKEN);
      expect(context.r).toMatchObject({ isError: true, text: 'token *** was refused' });
    } finally {
      await runner.reset();
    }
  });
});

describe('a server that echoes its token while connecting, on stdout, or as it dies', () => {
  it('a refused initialize: connect, connectAll, the status event and lastError show ***', async () => {
    manager = fromConfig(['--refuse-initialize']);
    const changes: StatusChange[] = [];
    manager.on('status', (change) => changes.push(change));
    const outcome = await manager.connectAll();
    expect(outcome.failed).toHaveLength(1);
    expect(outcome.failed[0]!.error.message).toContain('Bearer ***');
    expect(everything(outcome.failed[0]!.error)).not.toContain(TOKEN);
    const error = await rejection(manager.connect('careless'));
    expect(everything(error)).not.toContain(TOKEN);
    expect(changes.some((c) => c.error !== undefined)).toBe(true);
    expect(everything(changes)).not.toContain(TOKEN);
    expect(manager.getStatus().servers[0]!.lastError).toContain('Bearer ***');
    const call = await rejection(manager.callTool('mcp__careless__whoami', {}));
    expect(everything(call)).not.toContain(TOKEN);
  });

  it('junk on stdout holding the token: the diagnostic event shows *** and still counts', async () => {
    manager = fromConfig();
    const seen: string[] = [];
    manager.on('diagnostic', ({ diagnostic }) => seen.push(everything(diagnostic)));
    await manager.connectAll();
    await manager.callTool('mcp__careless__junk', {});
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('auth=***');
    expect(seen[0]).not.toContain(TOKEN);
    expect(manager.getStatus().servers[0]!.invalidMessages).toBe(1);
  });

  it('a crash whose stderr holds the token: the failed call, the status event and lastError show none of it', async () => {
    manager = fromConfig();
    const changes: StatusChange[] = [];
    manager.on('status', (change) => changes.push(change));
    await manager.connectAll();
    const error = await rejection(manager.callTool('mcp__careless__crash', {}));
    expect(everything(error)).not.toContain(TOKEN);
    await eventually(() => (changes.some((c) => c.status === 'error') ? true : undefined));
    expect(everything(changes)).not.toContain(TOKEN);
    const lastError = manager.getStatus().servers[0]!.lastError ?? '';
    expect(lastError).not.toContain(TOKEN);
    const down = await rejection(manager.callTool('mcp__careless__whoami', {}));
    expect(everything(down)).not.toContain(TOKEN);
  });
});

describe('an HTTP server that echoes the Authorization header in its error', () => {
  it('callTool rejects with Bearer *** in message and data, for a header written by hand', async () => {
    fixture = await startHttpFixture((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      const sent = String(seen.headers.authorization);
      return json(res, rpcError(seen, -32000, `bad token ${sent}`, { header: sent }));
    }, legacyServer());
    manager = McpManager.create({
      servers: [{ name: 'remote', transport: 'http', url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } }],
    });
    expect((await manager.connectAll()).connected).toEqual(['remote']);
    const error = await rejection(manager.callTool('mcp__remote__echo', { text: 'x' }));
    expect(error).toMatchObject({
      code: 'SERVER_ERROR',
      rpcCode: -32000,
      server: 'remote',
      data: { header: 'Bearer ***' },
    });
    expect(error.message).toContain('bad token Bearer ***');
    expect(everything(error)).not.toContain(TOKEN);
  });
});
