/**
 * Real HTTP MCP servers in child processes on 127.0.0.1 (port 0): server-everything in its
 * `streamableHttp` and `sse` modes, and the modern fixture (official v2 server package) over
 * Streamable HTTP. Each prints `{"port":N}` on stdout once it listens; `stop()` kills it and
 * waits until the process is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpClient } from '../../src/client/mcp-client.js';
import { waitUntilGone } from './processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HttpServerProcess {
  port: number;
  /** The endpoint for this server's mode (`/mcp` or `/sse`). */
  url: string;
  pid: number;
  stderr(): string;
  stop(): Promise<void>;
}

async function start(
  script: string,
  args: string[],
  pathname: string,
  env?: Record<string, string>,
): Promise<HttpServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not report a port within 15 s: ${stderr}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"port":'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before listening: ${stderr}`));
    });
  });
  const pid = child.pid!;
  return {
    port,
    url: `http://127.0.0.1:${port}${pathname}`,
    pid,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      if (await waitUntilGone(pid, 5_000)) return;
      child.kill('SIGKILL');
      await waitUntilGone(pid, 5_000);
    },
  };
}

/** server-everything over Streamable HTTP (`/mcp`) or HTTP+SSE (`/sse`). */
export function everythingOverHttp(mode: 'streamableHttp' | 'sse'): Promise<HttpServerProcess> {
  return start('spec-fixtures/servers/http/everything-on-loopback.mjs', [mode], mode === 'sse' ? '/sse' : '/mcp');
}

/** The modern (2026-07-28) fixture over Streamable HTTP, `/mcp`. */
export function modernOverHttp(args: string[] = []): Promise<HttpServerProcess> {
  return start('spec-fixtures/servers/modern/v2-server.mjs', ['--http', ...args], '/mcp');
}

/** A kit server with OpenTelemetry exporting to `otlpUrl` (`test/support/otel-kit-server.mjs`), `/mcp`. */
export function otelKitOverHttp(otlpUrl: string): Promise<HttpServerProcess> {
  return start('test/support/otel-kit-server.mjs', ['--http'], '/mcp', { OTLP_URL: otlpUrl });
}

/**
 * Calls server-everything's `trigger-long-running-operation` (`steps` steps over `duration`
 * seconds) on `client`; resolves with the progress values it reported, in order.
 */
export async function longRunProgress(client: McpClient, steps: number, duration: number): Promise<number[]> {
  const progress: number[] = [];
  await client.callTool(
    'trigger-long-running-operation',
    { duration, steps },
    { onProgress: (p) => progress.push(p.progress) },
  );
  return progress;
}

/** The kit's skills fixture (`spec-fixtures/servers/skills/kit-skills-server.mjs`, on dist/), `/mcp`. */
export function kitSkillsOverHttp(): Promise<HttpServerProcess> {
  return start('spec-fixtures/servers/skills/kit-skills-server.mjs', ['--http'], '/mcp');
}

/** The MCP Apps kit server (`test/support/kit-apps-server.mjs`, built kit) over Streamable HTTP, `/mcp`. */
export function appsKitOverHttp(args: string[] = []): Promise<HttpServerProcess> {
  return start('test/support/kit-apps-server.mjs', ['--http', ...args], '/mcp');
}
