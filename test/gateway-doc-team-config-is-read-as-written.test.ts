/**
 * The team config `docs/gateway.md` shows is one the gateway reads as written: its servers load
 * with no error, its `gateway` section passes the CLI's checks (keys, auth, state) and makes a
 * gateway (policies, the virtual server, the rate limit, pins), and the virtual server it names
 * is served. Only the pins file is moved into a temporary directory (the document's default is
 * the user's home).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gatewayFileOptions } from '../src/cli/gateway-config.js';
import { createGateway } from '../src/gateway/index.js';
import { loadConfig } from '../src/manager/config/load-config.js';
import { useTempDir } from './support/temp-dir.js';

const DOC = fileURLToPath(new URL('../docs/gateway.md', import.meta.url));

/** The first JSON block after the heading `heading` of the document. */
function jsonBlockAfter(markdown: string, heading: string): string {
  const at = markdown.indexOf(heading);
  expect(at, `docs/gateway.md has "${heading}"`).toBeGreaterThan(-1);
  const block = /```json\n([\s\S]*?)\n```/.exec(markdown.slice(at));
  expect(block, `a JSON block under "${heading}"`).not.toBeNull();
  return block![1]!;
}

const scratch = useTempDir('mcpwire-doc-gateway-');

describe("docs/gateway.md's team config", () => {
  it('loads its three servers, passes the gateway checks and serves its virtual server', async () => {
    const dir = scratch.dir;
    const file = path.join(dir, 'gateway.json');
    writeFileSync(file, jsonBlockAfter(readFileSync(DOC, 'utf8'), "## A team's config"));
    const env = {
      DATABASE_URL: 'postgres://app@127.0.0.1:1/app',
      REDIS_URL: 'redis://127.0.0.1:1',
      MCP_STATE_SECRET: 'a-secret-of-more-than-sixteen-characters',
    };

    const loaded = await loadConfig({
      cwd: dir,
      homeDir: dir,
      userConfigPath: false,
      project: false,
      configPaths: [file],
      env,
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers.map((server) => server.name).sort()).toEqual(['db', 'fs', 'github']);

    const { options } = gatewayFileOptions([file]);
    expect(Object.keys(options).sort()).toEqual(
      ['auth', 'pins', 'policies', 'rateLimit', 'state', 'virtualServers'].sort(),
    );
    const { auth: _auth, state: _state, ...rest } = options;
    const gateway = createGateway({
      ...rest,
      pins: { file: path.join(dir, 'pins.json') },
      manager: { servers: [] },
      logger: () => undefined,
    });
    try {
      expect([...gateway.virtualServers.keys()]).toEqual(['readonly']);
    } finally {
      await gateway.close();
    }
  });
});
