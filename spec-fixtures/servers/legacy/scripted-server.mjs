#!/usr/bin/env node
// A hand-written legacy-era MCP server over stdio NDJSON (no SDK), for client tests. It answers
// whatever it is asked, per its flags, and does not check what the client declared: tests use it
// to see what the client sends and how it copes. Wire shapes: ../README.md.
//
// Flags:
//   --version <rev>          the revision it speaks: 2024-11-05, 2025-03-26, 2025-06-18 or
//                            2025-11-25 (default). `initialize` is answered with it whatever the
//                            client offered. Shapes follow it: outputSchema/structuredContent from
//                            2025-06-18, elicitation `mode: "form"` and the completions capability
//                            as their revisions introduced them.
//   --caps <list>            advertise only these capabilities, comma-separated: tools, resources,
//                            prompts, logging, completions. `name=` gives `{}` and `name=a+b` the
//                            named flags (listChanged, subscribe); a bare name gives them all.
//                            A method whose capability is not advertised gets -32601 and a stderr
//                            line `refused <method>: capability <cap> not advertised`.
//   --discover <mode>        reaction to a `server/discover` probe: method-not-found (default,
//                            -32601), invalid-params (-32602), not-initialized (-32600 "Server not
//                            initialized"), silent (never answers), exit (exits with code 3)
//   --die-before-initialize  writes `fatal: config file missing` to stderr and exits 1 on initialize
//   --die-on-call <tool>     writes `fatal: <tool> blew up` to stderr and exits 1 when that tool is
//                            called (the tool need not exist; `crash` always does this)
//   --batch-responses        answers that are ready within 25 ms of each other go out as one JSON
//                            array (meant for 2025-03-26, the revision with batching)
//   --page-size <n>          page tools/list, resources/list, resources/templates/list and
//                            prompts/list n items at a time, with opaque cursors (default: one page)
//   --endless-pages          every list page carries a nextCursor; past the real items come
//                            synthetic `endless-<i>` ones
//   --resources <n>          static resources test://static/1..n (default 3; the last is a blob)
//   --record <file>          appends every line received to <file> (JSONL; a batch stays one line)
//   --banner                 writes `scripted server starting up` to stderr before reading
//
// Methods: initialize, notifications/initialized, ping, tools/list, tools/call, resources/list,
// resources/templates/list, resources/read (-32002 when unknown), resources/subscribe,
// resources/unsubscribe, prompts/list, prompts/get, completion/complete, logging/setLevel;
// anything else gets -32601. Requests before initialize are served too. Incoming batches are
// accepted in every revision and answered with one array. `notifications/cancelled` writes
// `cancelled <requestId>` to stderr and stops that call (it is never answered).
//
// Tools (listed in this order): echo {text}; add {a,b} → structuredContent {sum}; bad-structured
// (structuredContent breaking its outputSchema); fails (isError); slow {ms=300,steps=3} (progress
// with the request's _meta.progressToken, then "done after <steps> steps"); never-answer; crash;
// ask-sampling {prompt}, ask-elicitation {message}, ask-elicitation-url {url}, ask-roots, ask-ping
// (send that server→client request, ids 0, 1, …, and answer with the client's result as text
// JSON, or its error as text JSON with isError; an accepted URL elicitation is followed by
// notifications/elicitation/complete); log {level,message} (notifications/message if the level
// passes logging/setLevel, which starts open; answers sent/filtered); change-tools,
// change-prompts, change-resources (add `extra`, test://static/extra; announce when listChanged
// is advertised); big {bytes}; touch {uri} (notifications/resources/updated if subscribed).
// Resources: test://static/1..n, template test://dynamic/{id}. Prompts: greet {name}, plain.
// Completions: greet's `name` (Ada, Alan, Alice, Bob, Grace) and the template's `id` (1..12).
// Exits 0 on stdin EOF.
import { createCatalog, page } from './catalog.mjs';
import { callTool, isLevel } from './tools.mjs';
import { createWire } from './wire.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : argv[i + 1];
};
const die = (why) => {
  process.stderr.write(`${why}\n`);
  process.exit(1);
};

const version = option('--version', '2025-11-25');
const discover = option('--discover', 'method-not-found');
const dieOnCall = option('--die-on-call', undefined);
const paging = { pageSize: Number(option('--page-size', Infinity)), endless: flag('--endless-pages') };
if (!['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].includes(version)) die(`unknown --version ${version}`);
if (!['method-not-found', 'invalid-params', 'not-initialized', 'silent', 'exit'].includes(discover))
  die(`unknown --discover ${discover}`);

/** The capabilities to advertise, from --caps and the revision. */
function advertised() {
  const all = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
  const list = option('--caps', undefined);
  let caps = all;
  if (list !== undefined) {
    caps = {};
    for (const token of list.split(',').filter(Boolean)) {
      const [name, flags] = token.split('=');
      if (!(name in all)) die(`unknown capability in --caps: ${name}`);
      caps[name] =
        flags === undefined
          ? all[name]
          : Object.fromEntries(
              flags
                .split('+')
                .filter(Boolean)
                .map((f) => [f, true]),
            );
    }
  }
  if (version === '2024-11-05') delete caps.completions; // the capability came with 2025-03-26
  return caps;
}

const capabilities = advertised();
const catalog = createCatalog({ resourceCount: Number(option('--resources', 3)), structured: version >= '2025-06-18' });
const server = {
  version,
  capabilities,
  catalog,
  logLevel: undefined,
  subscribed: new Set(),
  inflight: new Map(),
  wire: undefined,
};

/** Method → the capability path it needs (completion/complete predates its capability). */
const GATES = {
  'tools/list': 'tools',
  'tools/call': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'resources/subscribe': 'resources.subscribe',
  'resources/unsubscribe': 'resources.subscribe',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'logging/setLevel': 'logging',
  ...(version === '2024-11-05' ? {} : { 'completion/complete': 'completions' }),
};

const LISTS = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

function onRequest(id, method, params) {
  const { wire } = server;
  const gate = GATES[method];
  if (gate && !gate.split('.').reduce((at, key) => at?.[key], capabilities)) {
    process.stderr.write(`refused ${method}: capability ${gate} not advertised\n`);
    return wire.fail(id, -32601, `Method not found: ${method}`);
  }
  switch (method) {
    case 'server/discover':
      if (discover === 'silent') return;
      if (discover === 'exit') process.exit(3);
      if (discover === 'invalid-params') return wire.fail(id, -32602, 'Invalid params');
      if (discover === 'not-initialized') return wire.fail(id, -32600, 'Server not initialized');
      return wire.fail(id, -32601, 'Method not found');
    case 'initialize':
      if (flag('--die-before-initialize')) die('fatal: config file missing');
      return wire.reply(id, {
        protocolVersion: version,
        capabilities,
        serverInfo: { name: 'scripted-legacy', version: '1.0.0' },
        instructions: `A scripted legacy fixture speaking ${version}.`,
      });
    case 'ping':
      return wire.reply(id, {});
    case 'tools/list':
    case 'resources/list':
    case 'resources/templates/list':
    case 'prompts/list': {
      const key = LISTS[method];
      const result = page(catalog.lists[key](), key, params.cursor, paging);
      return result.error ? wire.fail(id, -32602, result.error) : wire.reply(id, result);
    }
    case 'tools/call': {
      const name = params.name;
      if (name === dieOnCall || name === 'crash') die(`fatal: ${name} blew up`);
      return callTool(server, id, name, params.arguments ?? {}, params._meta);
    }
    case 'resources/read': {
      const contents = catalog.read(params.uri);
      return contents ? wire.reply(id, { contents }) : wire.fail(id, -32002, 'Resource not found', { uri: params.uri });
    }
    case 'resources/subscribe':
      server.subscribed.add(params.uri);
      return wire.reply(id, {});
    case 'resources/unsubscribe':
      server.subscribed.delete(params.uri);
      return wire.reply(id, {});
    case 'prompts/get': {
      const result = catalog.prompt(params.name, params.arguments);
      return typeof result === 'string' ? wire.fail(id, -32602, result) : wire.reply(id, result);
    }
    case 'completion/complete':
      return wire.reply(id, { completion: catalog.complete(params.ref, params.argument) });
    case 'logging/setLevel':
      if (!isLevel(params.level)) return wire.fail(id, -32602, `Invalid level: ${params.level}`);
      server.logLevel = params.level;
      return wire.reply(id, {});
    default:
      return wire.fail(id, -32601, `Method not found: ${method}`);
  }
}

function onNotification(method, params) {
  if (method !== 'notifications/cancelled') return;
  process.stderr.write(`cancelled ${params.requestId}\n`);
  const cancel = server.inflight.get(params.requestId);
  server.inflight.delete(params.requestId);
  cancel?.();
}

if (flag('--banner')) process.stderr.write('scripted server starting up\n');

server.wire = createWire({
  record: option('--record', undefined),
  batchResponses: flag('--batch-responses'),
  onMessage(message) {
    const params = message.params ?? {};
    if (message.id === undefined) return onNotification(message.method, params);
    onRequest(message.id, message.method, params);
  },
});
