// One adapter per client under test, all with the same shape:
//   load(transport)               → the client module(s); the caller times this as import cost
//   connect(mod, command, args)   → { call(name, args), list(), close() } after the handshake (stdio)
//   connectHttp(mod, url)         → the same over Streamable HTTP (legacy shape, no session)
// Every client is pinned to the legacy (2025-11-25) initialize handshake, so all four drive the
// same server code path.
import { spawn } from 'node:child_process';
import { baseDist, setUpOtel } from './otel-setup.mjs';
import http from 'node:http';

/**
 * What the raw floor passes to the server: the variables the SDKs' and mcpwire's own allowlists
 * all inherit. Passing the whole environment would hand the server e.g. NODE_EXTRA_CA_CERTS,
 * which alone adds ~50 ms to its start and would skew the floor's cold figure.
 */
const RAW_ENV = Object.fromEntries(
  ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']
    .filter((k) => process.env[k] !== undefined)
    .map((k) => [k, process.env[k]]),
);

/** Names in the order the tables print them. */
export const CLIENT_NAMES = process.env.BENCH_CLIENTS?.split(',') ?? ['raw', 'mcpwire', 'sdk-v1', 'sdk-v2'];
// `BENCH_CLIENTS=raw,mcpwire-base,mcpwire,mcpwire-otel` (raw first: the ratios' floor) compares a
// baseline build (MCPWIRE_BASE_DIST) and instrument() on (bench/otel-setup.mjs) with this build.

/**
 * The floor: newline-delimited JSON over the child's pipes, ids matched in a Map; no validation,
 * no timeouts, no cancellation. Its splitter scans each chunk once (not the whole buffer per
 * chunk), so it is a fair floor for large results too.
 */
const raw = {
  async load() {
    return import('node:child_process');
  },
  async connect(_mod, command, args, { detached = false } = {}) {
    const child = spawn(command, args, { env: RAW_ENV, stdio: ['pipe', 'pipe', 'inherit'], detached });
    const pending = new Map();
    let nextId = 1;
    let partial = [];
    const onLine = (line) => {
      const msg = JSON.parse(line);
      const waiter = pending.get(msg.id);
      if (waiter === undefined) return;
      pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
      else waiter.resolve(msg.result);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      let start = 0;
      let nl;
      while ((nl = chunk.indexOf('\n', start)) !== -1) {
        let line = chunk.slice(start, nl);
        if (partial.length > 0) {
          partial.push(line);
          line = partial.join('');
          partial = [];
        }
        start = nl + 1;
        onLine(line);
      }
      if (start < chunk.length) partial.push(chunk.slice(start));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const fail = (error) => {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    };
    child.once('error', fail);
    exited.then(() => fail(new Error('raw: server exited')));
    const request = (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return {
      call: (name, a) => request('tools/call', { name, arguments: a }),
      list: async () => (await request('tools/list', {})).tools,
      async close() {
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      },
    };
  },
};

/**
 * The HTTP floor: one keep-alive `node:http` Agent, a POST per request, the body parsed once
 * (a one-event SSE body is unwrapped by slicing its data line); no validation, no timeouts.
 */
raw.connectHttp = async (_mod, url) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const target = new URL(url);
  let nextId = 1;
  const post = (message) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(message);
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 202) return resolve(undefined);
            let text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
            if ((res.headers['content-type'] ?? '').startsWith('text/event-stream'))
              text = text.slice(text.indexOf('data: ') + 6, text.lastIndexOf('\n\n'));
            const msg = JSON.parse(text);
            if (msg.error) reject(new Error(`${msg.error.code}: ${msg.error.message}`));
            else resolve(msg.result);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const request = (method, params) => post({ jsonrpc: '2.0', id: nextId++, method, params });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    call: (name, a) => request('tools/call', { name, arguments: a }),
    list: async () => (await request('tools/list', {})).tools,
    async close() {
      agent.destroy();
    },
  };
};

/** mcpwire from dist/ (built by `npm run build`), pinned to the legacy era. */
const mcpwire = {
  async load() {
    const mod = await import('../dist/index.js');
    if (typeof mod.McpClient?.connect !== 'function') throw new Error('dist/index.js has no McpClient.connect');
    return mod;
  },
  async connect({ McpClient }, command, args) {
    const client = await McpClient.connect({ command, args }, { era: 'legacy' });
    return {
      call: (name, a) => client.callTool(name, a),
      // refresh: every list goes to the wire, as it does for the other clients (no list cache).
      list: () => client.listTools({ refresh: true }),
      close: () => client.close(),
    };
  },
};

mcpwire.connectHttp = async ({ McpClient }, url) => {
  const client = await McpClient.connect({ url, transport: 'http' }, { era: 'legacy' });
  return {
    call: (name, a) => client.callTool(name, a),
    list: () => client.listTools({ refresh: true }),
    close: () => client.close(),
  };
};

/** The official SDK v1 (`@modelcontextprotocol/sdk` 1.32.x): legacy initialize only. */
const sdkV1 = {
  async load() {
    const [{ Client }, { StdioClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
    ]);
    return { Client, StdioClientTransport };
  },
  async connect({ Client, StdioClientTransport }, command, args) {
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    return {
      call: (name, a) => client.callTool({ name, arguments: a }),
      list: async () => (await client.listTools()).tools,
      close: () => client.close(),
    };
  },
};

sdkV1.connectHttp = async ({ Client }, url) => {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    call: (name, a) => client.callTool({ name, arguments: a }),
    list: async () => (await client.listTools()).tools,
    close: () => client.close(),
  };
};

/** The official SDK v2 (`@modelcontextprotocol/client` 2.x), pinned with versionNegotiation 'legacy'. */
const sdkV2 = {
  async load() {
    const [{ Client }, { StdioClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/client'),
      import('@modelcontextprotocol/client/stdio'),
    ]);
    return { Client, StdioClientTransport };
  },
  async connect({ Client, StdioClientTransport }, command, args) {
    // 'legacy' is also its default today; stated so a changed default cannot move it off this path.
    const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    return {
      call: (name, a) => client.callTool({ name, arguments: a }),
      list: async () => (await client.listTools()).tools,
      close: () => client.close(),
    };
  },
};

sdkV2.connectHttp = async ({ Client }, url) => {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    call: (name, a) => client.callTool({ name, arguments: a }),
    list: async () => (await client.listTools()).tools,
    close: () => client.close(),
  };
};

/** Adapters by client name. */
/**
 * The floor with its server spawned `detached` (a session and process group of its own), as
 * mcpwire's stdio transport spawns to stop a server's whole tree. On Linux a new session is a new
 * scheduler autogroup, which on a loaded machine costs the client CPU and latency per round trip
 * (see "Noise" in README.md). Not in the tables: run it by name, `node bench/worker.mjs raw-group seq`.
 */
const rawGroup = { ...raw, connect: (mod, command, args) => raw.connect(mod, command, args, { detached: true }) };

/** mcpwire with OpenTelemetry set up and `instrument()` on (bench/otel-setup.mjs). */
const mcpwireOtel = {
  ...mcpwire,
  async load() {
    await setUpOtel();
    return mcpwire.load();
  },
};

/** mcpwire from a baseline build (`MCPWIRE_BASE_DIST`), to compare two commits in one interleaved run. */
const mcpwireBase = {
  ...mcpwire,
  async load() {
    return import(new URL('index.js', baseDist()).href);
  },
};

export const CLIENTS = {
  raw,
  'raw-group': rawGroup,
  mcpwire,
  'mcpwire-otel': mcpwireOtel,
  'mcpwire-base': mcpwireBase,
  'sdk-v1': sdkV1,
  'sdk-v2': sdkV2,
};
