/**
 * A fake MCP Registry on 127.0.0.1 (port 0): `/v0.1/servers` (substring `search`, `limit`,
 * opaque `cursor` paging, deleted servers left out), `/v0.1/servers/{name}/versions` and
 * `/v0.1/servers/{name}/versions/{version|latest}` (deleted ones served, as the registry does for
 * a named version), over the `ServerResponse` files in `spec-fixtures/registry/`. Every request's
 * path is recorded.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from './cli.js';

export const REGISTRY_FIXTURES = path.join(ROOT, 'spec-fixtures/registry');

interface Stored {
  server: { name: string; version: string };
  _meta?: Record<string, { status?: string }>;
}

export interface FakeRegistry {
  url: string;
  /** Request paths with their query, in order. */
  paths: string[];
  close(): Promise<void>;
}

/** Starts the fake registry over the fixtures. */
export async function startFakeRegistry(): Promise<FakeRegistry> {
  const entries: Stored[] = readdirSync(REGISTRY_FIXTURES)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(REGISTRY_FIXTURES, file), 'utf8')) as Stored);
  const status = (e: Stored) => e._meta?.['io.modelcontextprotocol.registry/official']?.status;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    paths.push(`${url.pathname}${url.search}`);
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/v0.1/servers') {
      const text = url.searchParams.get('search') ?? '';
      const found = entries.filter((e) => e.server.name.includes(text) && status(e) !== 'deleted');
      const start = Number(url.searchParams.get('cursor') ?? '0');
      const limit = Number(url.searchParams.get('limit') ?? '30');
      const page = found.slice(start, start + limit);
      const next = start + limit < found.length ? String(start + limit) : undefined;
      return send(200, { servers: page, metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } });
    }
    // Path parameters arrive URL-encoded (io.example%2Fweather); the raw path is split before decoding.
    const match = /^\/v0\.1\/servers\/([^/]+)\/versions(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return send(404, { error: 'Not found' });
    const name = decodeURIComponent(match[1]!);
    const versions = entries.filter((e) => e.server.name === name);
    if (!versions.length) return send(404, { error: 'Server not found' });
    if (match[2] === undefined) return send(200, { servers: versions, metadata: { count: versions.length } });
    const version = decodeURIComponent(match[2]);
    const one = version === 'latest' ? versions[0] : versions.find((e) => e.server.version === version);
    return one ? send(200, one) : send(404, { error: 'Server not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
