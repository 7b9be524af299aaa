/**
 * A package with a `fileSha256` is checked before anything is written: `config add
 * --from-server-json` (the built CLI) asks a loopback npm registry for the version's packument,
 * downloads the tarball it names and hashes it. A matching digest writes the entry and says so;
 * a different one exits 2 naming the package and both digests, and no config file is made.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-registry-digest-');
const TARBALL = Buffer.from('not really a tarball, but the bytes a publisher hashed\n');
const GOOD = createHash('sha256').update(TARBALL).digest('hex');
let npm: { url: string; paths: string[]; close(): Promise<void> };

beforeAll(async () => {
  requireBuiltCli();
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    if (req.url === '/@example%2fweather-mcp/1.2.0') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ name: '@example/weather-mcp', version: '1.2.0', dist: { tarball: `${url}/t/w.tgz` } }),
      );
    }
    if (req.url === '/t/w.tgz') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(TARBALL);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  npm = { url, paths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
});
afterAll(() => npm?.close());

function serverJson(fileSha256: string): string {
  const file = path.join(dirs.project, `server-${fileSha256.slice(0, 8)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: 'io.example/weather',
      description: 'Weather forecasts',
      version: '1.2.0',
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: npm.url,
          identifier: '@example/weather-mcp',
          version: '1.2.0',
          fileSha256,
          transport: { type: 'stdio' },
        },
      ],
    }),
  );
  return file;
}

const add = (name: string, file: string) =>
  runCli(['config', 'add', name, '--from-server-json', file, '--scope', 'project', '--yes'], {
    env: { HOME: dirs.home },
    cwd: dirs.project,
  });

describe('a package with a fileSha256', () => {
  it('is refused, with nothing written, when its tarball hashes to something else', async () => {
    const wrong = 'ab'.repeat(32);
    const run = await add('wx-bad', serverJson(wrong));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('npm package @example/weather-mcp@1.2.0 does not match its fileSha256');
    expect(run.stderr).toContain(`its tarball's sha256 is ${GOOD}, not ${wrong}`);
    expect(npm.paths).toEqual(['/@example%2fweather-mcp/1.2.0', '/t/w.tgz']);
    expect(existsSync(path.join(dirs.project, '.mcp.json'))).toBe(false);
  });

  it('is installed, saying it was checked, when the digest matches', async () => {
    const run = await add('wx', serverJson(GOOD));
    expect(run.code, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('fileSha256 of @example/weather-mcp checked');
    const written = JSON.parse(readFileSync(path.join(dirs.project, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    // The package's own registry goes with it, so npx fetches the file that was checked.
    expect(written.mcpServers.wx!.args).toEqual(['-y', '--registry', npm.url, '@example/weather-mcp@1.2.0']);
  });
});
