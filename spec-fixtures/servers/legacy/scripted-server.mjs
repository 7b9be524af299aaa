#!/usr/bin/env node
// A hand-written legacy-era MCP server over stdio NDJSON (no SDK), for client fault tests.
//
// Flags:
//   --version <rev>            revision it answers initialize with (default 2025-11-25)
//   --discover <mode>          reaction to a `server/discover` probe: method-not-found (default),
//                              invalid-params, silent, exit (exits with code 3)
//   --die-before-initialize    writes a stderr line and exits 1 on initialize
//   --die-on-call <tool>       exits 1 (after a stderr line) when that tool is called
//   --record <file>            appends every received message to <file> as JSONL
//   --banner                   writes a startup line to stderr before reading anything
// Tools: echo {text}; never-answer (never responds; logs `cancelled <id>` to stderr when it is
// cancelled); slow {ms, steps} (progress notifications, then an answer); crash (exits 1).
// Exits on stdin EOF.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : argv[i + 1];
};
const version = option('--version', '2025-11-25');
const discover = option('--discover', 'method-not-found');
const dieOnCall = option('--die-on-call', undefined);
const record = option('--record', undefined);

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const reply = (id, result) => send({ id, result });
const fail = (id, code, message) => send({ id, error: { code, message } });
const die = (why) => {
  process.stderr.write(`${why}\n`);
  process.exit(1);
};

const tools = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'never-answer', inputSchema: { type: 'object' } },
  { name: 'slow', inputSchema: { type: 'object', properties: { ms: { type: 'number' }, steps: { type: 'number' } } } },
];

if (flag('--banner')) process.stderr.write('scripted server starting up\n');

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const message = JSON.parse(line);
  if (record) appendFileSync(record, `${line}\n`);
  const { id, method, params = {} } = message;
  if (method === 'notifications/cancelled') {
    process.stderr.write(`cancelled ${params.requestId}\n`);
    return;
  }
  if (id === undefined || method === undefined) return;
  switch (method) {
    case 'server/discover':
      if (discover === 'silent') return;
      if (discover === 'exit') process.exit(3);
      return discover === 'invalid-params' ? fail(id, -32602, 'Invalid params') : fail(id, -32601, 'Method not found');
    case 'initialize':
      if (flag('--die-before-initialize')) die('fatal: config file missing');
      return reply(id, { protocolVersion: version, capabilities: { tools: { listChanged: true }, logging: {} }, serverInfo: { name: 'scripted-legacy', version: '1.0.0' } });
    case 'ping':
      return reply(id, {});
    case 'tools/list':
      return reply(id, { tools });
    case 'logging/setLevel':
      return reply(id, {});
    case 'tools/call': {
      const name = params.name;
      const args = params.arguments ?? {};
      if (name === dieOnCall || name === 'crash') die(`fatal: ${name} blew up`);
      if (name === 'echo') return reply(id, { content: [{ type: 'text', text: String(args.text ?? '') }] });
      if (name === 'never-answer') return;
      if (name === 'slow') {
        const steps = args.steps ?? 3;
        const token = params._meta?.progressToken;
        let done = 0;
        const timer = setInterval(() => {
          done++;
          if (token !== undefined) send({ method: 'notifications/progress', params: { progressToken: token, progress: done, total: steps } });
          if (done >= steps) {
            clearInterval(timer);
            reply(id, { content: [{ type: 'text', text: `done after ${steps} steps` }] });
          }
        }, (args.ms ?? 300) / steps);
        return;
      }
      return fail(id, -32602, `Unknown tool: ${name}`);
    }
    default:
      return fail(id, -32601, `Method not found: ${method}`);
  }
});
rl.on('close', () => process.exit(0));
