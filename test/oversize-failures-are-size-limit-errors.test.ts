/**
 * A response over `maxMessageBytes` fails its request with a `SizeLimitError` (code `TRANSPORT`)
 * that names the limit as a typed fact, on every transport: stdio and the HTTP+SSE stream (where
 * the connection fails the request from the transport's `oversize` diagnostic) and Streamable
 * HTTP (where the transport fails it); nothing goes into the peer's `data`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { SizeLimitError } from '../src/protocol/errors.js';
import { httpSseServer, json, legacyServer, result } from './support/http-fixture.js';
import { FIXTURES } from './support/processes.js';
import { useHttpScene } from './support/http-scene.js';
import { failureOf } from './support/failure.js';

const CAP = 64 * 1024;

const scene = useHttpScene<McpClient>();

describe('a response over maxMessageBytes', () => {
  it('stdio: a SizeLimitError with the limit and the line size', async () => {
    scene.client = await McpClient.connect(
      { command: process.execPath, args: [path.join(FIXTURES, 'legacy', 'scripted-server.mjs')] },
      { name: 'scripted', era: 'legacy', stdio: { maxMessageBytes: CAP } },
    );
    const error = await failureOf(scene.client.callTool('big', { bytes: 4 * CAP }), SizeLimitError, {
      code: 'TRANSPORT',
      server: 'scripted',
      method: 'tools/call',
      limit: CAP,
      option: 'maxMessageBytes',
      url: undefined,
      data: undefined,
    });
    expect(error.size).toBeGreaterThan(4 * CAP);
    expect(error.toJSON()).toMatchObject({ limit: CAP, option: 'maxMessageBytes' });
  });

  it('HTTP+SSE: a SizeLimitError with the limit', async () => {
    await scene.start(
      httpSseServer({ tools: [{ name: 'huge', description: 'x'.repeat(4 * CAP), inputSchema: { type: 'object' } }] }),
    );
    scene.client = await McpClient.connect(
      { url: scene.fixture.url, transport: 'sse' },
      { name: 'old', http: { maxMessageBytes: CAP } },
    );
    await failureOf(scene.client.listTools(), SizeLimitError, {
      code: 'TRANSPORT',
      server: 'old',
      method: 'tools/list',
      limit: CAP,
      data: undefined,
    });
  });

  it('Streamable HTTP: a SizeLimitError with the limit and the URL', async () => {
    // Larger than one socket read (64 KiB): the body passes the cap while it is being read.
    const cap = 256 * 1024;
    await scene.start(
      (seen, res) =>
        seen.rpc === 'tools/list'
          ? json(
              res,
              result(seen, {
                tools: [{ name: 'huge', description: 'x'.repeat(4 * cap), inputSchema: { type: 'object' } }],
              }),
            )
          : false,
      legacyServer(),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'big', http: { maxMessageBytes: cap } });
    await failureOf(scene.client.listTools(), SizeLimitError, {
      code: 'TRANSPORT',
      server: 'big',
      method: 'tools/list',
      limit: cap,
      url: scene.fixture.url,
      data: undefined,
    });
  });
});
