// One adapter per client under test, all with the same shape:
//   load() → the module(s), timed by the caller as import cost
//   connect(mod, command, args) → { call(name, args), list(), close() }
import { spawn } from 'node:child_process';

/** The floor: newline JSON over the child's pipes, ids in a Map, no validation. */
const raw = {
  async load() {
    return {};
  },
  async connect(_mod, command, args) {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const pending = new Map();
    let nextId = 1;
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line);
        const resolve = pending.get(msg.id);
        if (resolve) {
          pending.delete(msg.id);
          resolve(msg.result);
        }
      }
    });
    const request = (method, params) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return {
      call: (name, args) => request('tools/call', { name, arguments: args }),
      list: async () => (await request('tools/list', {})).tools,
      close: async () => {
        child.stdin.end();
        await new Promise((r) => child.once('exit', r));
      },
    };
  },
};

const mcpwire = {
  async load() {
    return import('../dist/index.js');
  },
  async connect(mod, command, args) {
    const client = await mod.McpClient.connect({ command, args }, { era: 'legacy', name: 'bench' });
    return { call: (name, a) => client.callTool(name, a), list: () => client.listTools({ refresh: true }), close: () => client.close() };
  },
};

const sdkV1 = {
  async load() {
    const [{ Client }, { StdioClientTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js')]);
    return { Client, StdioClientTransport };
  },
  async connect({ Client, StdioClientTransport }, command, args) {
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    return { call: (name, a) => client.callTool({ name, arguments: a }), list: async () => (await client.listTools()).tools, close: () => client.close() };
  },
};

const sdkV2 = {
  async load() {
    const [{ Client }, { StdioClientTransport }] = await Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]);
    return { Client, StdioClientTransport };
  },
  async connect({ Client, StdioClientTransport }, command, args) {
    // versionNegotiation 'legacy' (its default): the same initialize path as every other client here.
    const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    return { call: (name, a) => client.callTool({ name, arguments: a }), list: async () => (await client.listTools()).tools, close: () => client.close() };
  },
};

export const CLIENTS = { raw, mcpwire, 'sdk-v1': sdkV1, 'sdk-v2': sdkV2 };
