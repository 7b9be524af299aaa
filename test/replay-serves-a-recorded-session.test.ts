/**
 * `mcpwire replay`: a session recorded with the built `mcpwire proxy` against the reference
 * server (server-everything over stdio) is served back, and the same client script gets the same
 * results from the replay as from the server — mcpwire's client and the official SDK client, over
 * stdio and over `--http`; progress, an elicitation the server asks for mid-call, and the
 * list_changed notices come back in their place. Strict mode names the expected request when the
 * script changes; --loose takes the requests in any order. Traces that are not one session's
 * recording are refused naming the file and line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { McpError } from '../src/protocol/errors.js';
import { CLI, EVERYTHING, MODERN, requireBuiltCli, runCli } from './support/cli.js';
import { modernOverHttp, longRunProgress } from './support/http-servers.js';
import { within } from './support/wait.js';

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-replay-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const proxied = (file: string) => ({
  command: process.execPath,
  args: [CLI, 'proxy', '--trace-file', file, '--', process.execPath, EVERYTHING, 'stdio'],
});
const replayed = (file: string, ...options: string[]) => ({
  command: process.execPath,
  args: [CLI, 'replay', file, ...options],
});

/** What one run of the script saw. */
interface Seen {
  tools: string[];
  echo: unknown;
  sum: unknown;
  progress: number[];
  elicited: number;
  elicitation: unknown;
}

/** The client script: mcpwire's client. `order` reverses the two plain calls. */
async function mcpwireScript(target: Parameters<typeof McpClient.connect>[0], reorder = false): Promise<Seen> {
  let elicited = 0;
  const options: ClientOptions = {
    connectTimeoutMs: 30_000,
    handlers: {
      elicitation: () => {
        elicited++;
        return { action: 'decline' };
      },
    },
  };
  const client = await McpClient.connect(target, options);
  try {
    const tools = (await client.listTools()).map((t) => t.name).sort();
    const echoCall = () => client.callTool('echo', { message: 'hello replay' });
    const sumCall = () => client.callTool('get-sum', { a: 2, b: 40 });
    let echo: unknown;
    let sum: unknown;
    if (reorder) {
      sum = await sumCall();
      echo = await echoCall();
    } else {
      echo = await echoCall();
      sum = await sumCall();
    }
    const progress = await longRunProgress(client, 3, 1.5);
    const elicitation = await client.callTool('trigger-elicitation-request', {});
    return { tools, echo, sum, progress, elicited, elicitation };
  } finally {
    await client.close();
  }
}

/** The same script with the official SDK client (v1) over its own transport. */
async function sdkScript(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Seen> {
  const client = new SdkClient({ name: 'sdk-script', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  let elicited = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    elicited++;
    return { action: 'decline' };
  });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'hello replay' } });
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } });
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1.5, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    const elicitation = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    return { tools, echo, sum, progress, elicited, elicitation };
  } finally {
    await client.close();
  }
}

/**
 * What must be the same for the SDK client. Its progress is compared by the steps before the last:
 * the SDK drops a progress notification that arrives in the same read as the answer (it handles
 * notifications a tick later), live and replayed alike, so the last one is a race either way.
 */
function sameAsLive(seen: Seen, live: Seen): Seen {
  const steps = Math.max(live.progress.length - 1, 1);
  return { ...seen, progress: seen.progress.slice(0, steps) };
}

/** Records the mcpwire-client script once per file (the recordings several tests replay). */
let recorded: { file: string; seen: Seen } | undefined;
async function recording(): Promise<{ file: string; seen: Seen }> {
  if (recorded) return recorded;
  const file = path.join(dir, 'mcpwire-client.jsonl');
  const seen = await mcpwireScript(proxied(file));
  recorded = { file, seen };
  return recorded;
}

/** Records the SDK-client script once (the recordings several tests replay). */
let sdkRecorded: { file: string; seen: Seen } | undefined;
async function sdkRecording(): Promise<{ file: string; seen: Seen }> {
  if (sdkRecorded) return sdkRecorded;
  const file = path.join(dir, 'sdk-client.jsonl');
  const seen = await sdkScript(new StdioClientTransport({ ...proxied(file), stderr: 'ignore' }));
  sdkRecorded = { file, seen };
  return sdkRecorded;
}

/** `mcpwire replay FILE --http 127.0.0.1:0 [...]`: its URL, and a stop that resolves with its exit and stderr. */
function replayOverHttp(file: string, ...options: string[]) {
  return cliPrintingUrl(['replay', file, '--http', '127.0.0.1:0', ...options]);
}

/** The built CLI with `args`, run until it prints a URL on stdout; `stop()` sends SIGINT. */
async function cliPrintingUrl(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = await within(
    new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.trim());
      });
      child.once('exit', () => reject(new Error(`mcpwire ${args[0]} exited before listening: ${stderr}`)));
    }),
    { timeoutMs: 15_000, what: `mcpwire ${args[0]} to print its URL` },
  );
  return {
    url,
    async stop() {
      child.kill('SIGINT');
      return { code: await within(exited, { timeoutMs: 15_000, what: `mcpwire ${args[0]} to exit` }), stderr };
    },
  };
}

describe('mcpwire replay', () => {
  it('gives mcpwire’s client the results the server gave it, progress and elicitation included', async () => {
    const { file, seen } = await recording();
    expect(seen.tools).toContain('echo');
    expect(seen.progress.length).toBeGreaterThan(0);
    expect(seen.elicited).toBe(1);
    const again = await mcpwireScript(replayed(file));
    expect(again).toEqual(seen);
  });

  it('gives the official SDK client the results the server gave it', async () => {
    const { file, seen: live } = await sdkRecording();
    expect(live.elicited).toBe(1);
    const again = await sdkScript(new StdioClientTransport({ ...replayed(file), stderr: 'ignore' }));
    expect(sameAsLive(again, live)).toEqual(sameAsLive(live, live));
  });

  it('in strict mode answers a request out of order with an error naming the expected one', async () => {
    const { file } = await recording();
    const failure = await mcpwireScript(replayed(file), true).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    const error = failure as McpError;
    expect(error.rpcCode).toBe(-32090);
    expect(error.message).toContain('expected request #');
    expect(error.message).toContain('tools/call {"name":"echo","arguments":{"message":"hello replay"}}');
    expect(error.message).toContain(`${file}:`);
    expect(error.message).toContain('got tools/call {"name":"get-sum","arguments":{"a":2,"b":40}}');
    expect(error.data).toMatchObject({
      expected: { method: 'tools/call', params: { name: 'echo' } },
      received: { method: 'tools/call', params: { name: 'get-sum' } },
    });
  });

  it('in strict mode logs a changed argument on stderr, still serves the expected request, and exits 5', async () => {
    const { file, seen } = await recording();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'changed' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello replay' } } },
    ];
    const run = await runCli(['replay', file], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    const answers = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: unknown; error?: { code: number; message: string } })
      .filter((m) => m.id !== undefined);
    expect(answers.find((a) => a.id === 3)?.error).toMatchObject({
      code: -32090,
      message: expect.stringMatching(
        /expected request #\d+ tools\/call \{"name":"echo","arguments":\{"message":"hello replay"\}\}/,
      ),
    });
    expect(answers.find((a) => a.id === 4)?.result).toEqual(seen.echo);
    expect(run.stderr).toMatch(
      /mcpwire replay: replay mismatch: expected request #\d+ tools\/call .*got tools\/call \{"name":"echo","arguments":\{"message":"changed"\}\}/,
    );
    expect(run.stderr).toMatch(/1 mismatch\(es\)/);
    expect(run.code).toBe(5);
  });

  it('with --loose takes the recorded requests in any order', async () => {
    const { file, seen } = await recording();
    expect(await mcpwireScript(replayed(file, '--loose'), true)).toEqual(seen);
  });

  it('serves over --http a fresh replay to each client session, and exits 0 on SIGINT', async () => {
    const { file, seen } = await recording();
    const replay = await replayOverHttp(file);
    expect(await mcpwireScript({ url: replay.url })).toEqual(seen);
    expect(await mcpwireScript({ url: replay.url, transport: 'http' })).toEqual(seen);
    const { code, stderr } = await replay.stop();
    // Recorded over stdio, the session holds the ping behind the era probe, an optional step an
    // HTTP client never sends (it pings nothing): one recorded request is skipped, none is missed.
    for (const session of [1, 2]) {
      const report = new RegExp(
        `session ${session}: served (\\d+) of (\\d+) recorded request\\(s\\), 0 mismatch\\(es\\), 0 never asked for`,
      ).exec(stderr);
      expect(report, stderr).not.toBeNull();
      expect(Number(report![2]) - Number(report![1])).toBe(1);
    }
    expect(code).toBe(0);
  });

  it('serves over --http to the SDK client what it got from the server', async () => {
    const { file, seen: live } = await sdkRecording();
    const replay = await replayOverHttp(file);
    const again = await sdkScript(new StreamableHTTPClientTransport(new URL(replay.url)));
    expect(sameAsLive(again, live)).toEqual(sameAsLive(live, live));
    const { code, stderr } = await replay.stop();
    expect(stderr).toMatch(/served (\d+) of \1 recorded request\(s\), 0 mismatch\(es\), 0 never asked for/);
    expect(code).toBe(0);
  });

  it('replays a 2026-07-28 session (no initialize): discover, structured results, progress, an input round', async () => {
    const file = path.join(dir, 'modern.jsonl');
    const script = async (target: Parameters<typeof McpClient.connect>[0]) => {
      const client = await McpClient.connect(target, {
        connectTimeoutMs: 30_000,
        handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) },
      });
      try {
        const progress: number[] = [];
        return {
          era: client.era,
          tools: (await client.listTools()).map((t) => t.name).sort(),
          add: await client.callTool('add', { a: 2, b: 3 }),
          slow: await client.callTool('slow', { ms: 900, steps: 3 }, { onProgress: (p) => progress.push(p.progress) }),
          progress,
          confirm: await client.callTool('confirm', { what: 'deploy' }),
        };
      } finally {
        await client.close();
      }
    };
    const live = await script({
      command: process.execPath,
      args: [CLI, 'proxy', '--trace-file', file, '--', process.execPath, MODERN],
    });
    expect(live.era).toBe('modern');
    expect(live.progress.length).toBe(3);
    expect(await script(replayed(file))).toEqual(live);
    const replay = await replayOverHttp(file);
    // Over HTTP the client leaves out a tool with invalid x-mcp-header markings (the 2026 binding's rule).
    const overHttp = { ...live, tools: live.tools.filter((name) => name !== 'bad-header-tool') };
    expect(await script({ url: replay.url })).toEqual(overHttp);
    const { code, stderr } = await replay.stop();
    expect(stderr).toMatch(/0 mismatch\(es\)/);
    expect(code).toBe(0);
  });

  it('replays a session the HTTP proxy recorded (the modern fixture over Streamable HTTP) over stdio', async () => {
    const server = await modernOverHttp();
    onTestFinished(() => server.stop());
    const file = path.join(dir, 'http-proxy.jsonl');
    const proxy = await cliPrintingUrl(['proxy', '--url', server.url, '--trace-file', file]);
    const script = async (target: Parameters<typeof McpClient.connect>[0]) => {
      const client = await McpClient.connect(target, { connectTimeoutMs: 30_000 });
      try {
        return { era: client.era, add: await client.callTool('add', { a: 20, b: 22 }) };
      } finally {
        await client.close();
      }
    };
    const live = await script({ url: proxy.url });
    expect((await proxy.stop()).code).toBe(0);
    expect(live).toMatchObject({ era: 'modern', add: { structuredContent: { sum: 42 } } });
    expect(await script(replayed(file))).toEqual(live);
  });

  it('refuses a file of several sessions unless --session N picks one', async () => {
    const { file } = await recording();
    const { file: sdk } = await sdkRecording();
    const both = path.join(dir, 'both.jsonl');
    writeFileSync(both, readFileSync(file, 'utf8') + readFileSync(sdk, 'utf8'));
    const refused = await runCli(['replay', both]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${both}: holds 2 sessions (1: `);
    expect(refused.stderr).toContain('choose one with --session N');
    const requests = (text: string) =>
      text.split('\n').filter((line) => /"dir":"out","kind":"request"/.test(line)).length;
    // Nothing asked: the summary counts the chosen session's recorded requests, all never asked for (exit 5).
    const second = await runCli(['replay', both, '--session', '2']);
    expect(second.stderr).toContain(`served 0 of ${requests(readFileSync(sdk, 'utf8'))} recorded request(s)`);
    expect(second.code).toBe(5);
    const third = await runCli(['replay', both, '--session', '3']);
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('has 2 session(s), not a session 3');
  });

  it('refuses a trace with a line that is not a record, naming the file and line', async () => {
    const { file } = await recording();
    const broken = path.join(dir, 'broken.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(3, 0, '{not json');
    writeFileSync(broken, lines.join('\n'));
    const run = await runCli(['replay', broken]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${broken}:4: not JSON`);
  });

  it('refuses a recording that does not start a session, naming the file and line', async () => {
    const { file } = await recording();
    const late = path.join(dir, 'late.jsonl');
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !/"method":"(initialize|server\/discover)"/.test(line));
    writeFileSync(late, `${lines.join('\n')}\n`);
    const run = await runCli(['replay', late]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`${late.replace(/[.]/g, '\\.')}:\\d+: the session has no initialize`));
  });
});
