/**
 * Debug logging of connection attempts and tool calls: through Node's `util.debuglog`
 * (`NODE_DEBUG=mcpwire`, stderr) or a logger the host passes; off by default; arguments shown
 * with secret-looking keys and config secrets redacted. The `NODE_DEBUG` case runs the built
 * package in a child process (the variable is read once per process).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/debug-log-host.mjs');
const SECRETS = ['sk-arg-secret-123', 'sk-config-secret-991'];

/** Runs the host to its end (bounded) and returns its stderr and exit code. */
function runHost(env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOST, SCRIPTED], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`host did not finish within 20 s; stderr so far:\n${stderr}`));
    }, 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const { NODE_DEBUG: _ignored, ...quietEnv } = process.env;

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('debug logging', () => {
  it('NODE_DEBUG=mcpwire prints connects and calls to stderr, arguments redacted', async () => {
    const { code, stderr } = await runHost({ ...quietEnv, NODE_DEBUG: 'mcpwire' });
    expect(code, stderr).toBe(0);
    const lines = stderr
      .split('\n')
      .filter((line) => /^MCPWIRE \d+: /.test(line))
      .map((line) => line.replace(/^MCPWIRE \d+: /, ''));
    expect(lines[0]).toBe(`connect "alpha": stdio ${process.execPath} ${SCRIPTED}`);
    expect(lines).toContainEqual(expect.stringMatching(/^connected "alpha" in \d+ ms: legacy 2025-11-25, \d+ tools$/));
    expect(lines).toContain(
      'call mcp__alpha__echo (server "alpha", tool "echo") arguments {"text":"hello","apiToken":"***","note":"mentions ***"}',
    );
    expect(lines).toContainEqual(expect.stringMatching(/^call mcp__alpha__echo succeeded in \d+ ms$/));
    for (const secret of SECRETS) expect(stderr).not.toContain(secret);
  });

  it('is silent without NODE_DEBUG', async () => {
    const { code, stderr } = await runHost(quietEnv);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
  });

  it("goes to the host's logger when one is given, failures included", async () => {
    const lines: string[] = [];
    manager = McpManager.create({
      servers: [
        {
          name: 'alpha',
          transport: 'stdio',
          command: process.execPath,
          args: [SCRIPTED],
          secrets: ['sk-config-secret-991'],
        },
        { name: 'broken', transport: 'stdio', command: '/nonexistent/server', restart: false },
      ],
      logger: (line) => lines.push(line),
    });
    await manager.connectAll();
    await manager.callTool('mcp__alpha__fails', { password: 'hunter22', nested: { list: ['sk-config-secret-991'] } });
    expect(lines).toContain(`connect "broken": stdio /nonexistent/server`);
    expect(lines).toContainEqual(expect.stringMatching(/^connect "broken" failed: .*\/nonexistent\/server/));
    expect(lines).toContain(
      'call mcp__alpha__fails (server "alpha", tool "fails") arguments {"password":"***","nested":{"list":["***"]}}',
    );
    expect(lines).toContainEqual(expect.stringMatching(/^call mcp__alpha__fails returned isError in \d+ ms$/));
    expect(lines.join('\n')).not.toContain('hunter22');
  });
});
