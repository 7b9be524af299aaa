/**
 * A real multi-server trace file for the tests of what reads traces (`trace export`): four
 * sessions appended to one JSONL file, as `--trace-file` runs and proxy runs append them.
 *
 * - `stdio-legacy`: mcpwire's client on the scripted server (stdio, 2025-11-25): echo; `fails`
 *   (`isError`); an unknown tool (JSON-RPC error); `slow` with progress; `ask-sampling` (a
 *   server→client request); `never-answer`, cancelled.
 * - `stdio-modern`: mcpwire's client on the kit (stdio, 2026-07-28): echo; `crash` (`isError`).
 * - `127.0.0.1:PORT`: `mcpwire proxy --url` in front of the kit (HTTP), driven by the client pinned
 *   to legacy (2025-11-25): echo; `fails`; `hold`, cancelled (`notifications/cancelled` on a POST).
 * - `http-modern`: mcpwire's client on the kit (HTTP, 2026-07-28): echo; `fails`.
 *
 * Needs `dist/` (`npm run build`): the proxy is the built CLI, the stdio kit imports `mcpwire/server`.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { McpClient } from '../../src/client/mcp-client.js';
import { McpServer } from '../../src/server/index.js';
import type { TraceRecord } from '../../src/observe/trace-record.js';
import { CLI, SCRIPTED } from './cli.js';
import { startKitHttp } from './kit-http.js';
import { KIT_STDIO_SERVER } from './kit-stdio.js';
import { until } from './wait.js';

const node = process.execPath;

/**
 * A kit server with `echo {text}`, `fails` (`isError`) and `hold` (answers only when cancelled);
 * `held` resolves as `hold` starts.
 */
function kitServer(): { server: McpServer; held: Promise<AbortSignal> } {
  let onHeld: (signal: AbortSignal) => void = () => {};
  const held = new Promise<AbortSignal>((resolve) => (onHeld = resolve));
  const server = new McpServer({ name: 'mixed-kit', version: '1.0.0' });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args: { text?: string }) => ({ content: [{ type: 'text', text: String(args.text) }] }),
  });
  server.registerTool({
    name: 'fails',
    inputSchema: { type: 'object' },
    handler: () => ({ isError: true, content: [{ type: 'text', text: 'this tool always fails' }] }),
  });
  server.registerTool({
    name: 'hold',
    inputSchema: { type: 'object' },
    handler: (_args, { signal }) =>
      new Promise((_resolve, reject) => {
        onHeld(signal);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      }),
  });
  return { server, held };
}

function appender(file: string): { records: TraceRecord[]; sink: (record: TraceRecord) => void } {
  const records: TraceRecord[] = [];
  return {
    records,
    sink: (record) => {
      records.push(record);
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    },
  };
}

async function stdioLegacy(file: string): Promise<void> {
  const trace = appender(file);
  const client = await McpClient.connect(
    { command: node, args: [SCRIPTED, '--version', '2025-11-25'] },
    {
      name: 'stdio-legacy',
      trace: { sink: trace.sink },
      handlers: {
        sampling: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'a sampled answer' },
          model: 'fixture-model',
          stopReason: 'endTurn',
        }),
      },
    },
  );
  try {
    await client.callTool('echo', { text: 'hello' });
    await client.callTool('fails', {});
    await client.callTool('no-such-tool', {}).catch(() => undefined);
    await client.callTool('slow', { ms: 30, steps: 2 }, { onProgress: () => {} });
    await client.callTool('ask-sampling', { prompt: 'Say hi' });
    const controller = new AbortController();
    const call = client.callTool('never-answer', {}, { signal: controller.signal }).catch(() => undefined);
    await until(
      () => trace.records.some((r) => r.method === 'tools/call' && r.kind === 'request' && hasTool(r, 'never-answer')),
      {
        what: 'the never-answer call on the wire',
      },
    );
    controller.abort();
    await call;
    await until(() => trace.records.some((r) => r.method === 'notifications/cancelled'), { what: 'the cancel notice' });
  } finally {
    await client.close();
  }
}

async function stdioModern(file: string): Promise<void> {
  const trace = appender(file);
  const client = await McpClient.connect(
    { command: node, args: [KIT_STDIO_SERVER] },
    { name: 'stdio-modern', trace: { sink: trace.sink } },
  );
  try {
    await client.callTool('echo', { text: 'hello' });
    await client.callTool('crash', {});
  } finally {
    await client.close();
  }
}

async function httpLegacyThroughProxy(file: string): Promise<void> {
  const { server, held } = kitServer();
  const kit = await startKitHttp(server);
  const proxy = spawn(node, [CLI, 'proxy', '--url', kit.url, '--listen', '127.0.0.1:0', '--trace-file', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise<number | null>((resolve) => proxy.once('close', resolve));
  try {
    let out = '';
    proxy.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await until(() => out.includes('\n'), { timeoutMs: 15_000, what: "the proxy's URL" });
    const client = await McpClient.connect({ url: out.trim() }, { era: 'legacy' });
    try {
      await client.callTool('echo', { text: 'hello' });
      await client.callTool('fails', {});
      const controller = new AbortController();
      const call = client.callTool('hold', {}, { signal: controller.signal }).catch(() => undefined);
      const signal = await held;
      controller.abort();
      await call;
      // The kit saw the cancel notice: the proxy recorded it on its way.
      await until(() => signal.aborted, { what: 'the kit handler cancelled' });
    } finally {
      await client.close();
    }
  } finally {
    proxy.kill('SIGINT');
    await closed;
  }
}

async function httpModern(file: string): Promise<void> {
  const { server } = kitServer();
  const kit = await startKitHttp(server);
  const trace = appender(file);
  const client = await McpClient.connect({ url: kit.url }, { name: 'http-modern', trace: { sink: trace.sink } });
  try {
    await client.callTool('echo', { text: 'hello' });
    await client.callTool('fails', {});
  } finally {
    await client.close();
  }
}

function hasTool(record: TraceRecord, name: string): boolean {
  const params = (record.message as { params?: { name?: unknown } } | undefined)?.params;
  return params?.name === name;
}

/** Appends the four sessions above to `file` (call it inside a test: the kits close with it). */
export async function recordMixedTrace(file: string): Promise<void> {
  await stdioLegacy(file);
  await stdioModern(file);
  await httpLegacyThroughProxy(file);
  await httpModern(file);
}
