#!/usr/bin/env node
// A real 2026-07-28 server built on the official v2 server package (`@modelcontextprotocol/server`),
// served over stdio by `serveStdio`. Test fixture only: nothing under src/ may import an SDK.
// The wire shapes it produces are written down in ../README.md.
//
// Flags:
//   --legacy serve|reject   how a 2025-era opening (`initialize`) is handled: `serve` (default,
//                           dual-era: the connection is pinned to a 2025-era session; over HTTP
//                           the SDK's stateless legacy fallback) or `reject` (modern-only: -32022
//                           naming the supported revisions)
//   --http                  serve Streamable HTTP (the SDK's createMcpHandler behind a plain
//                           node:http adapter) on 127.0.0.1, port 0, and print {"port":N} on
//                           stdout; the endpoint is /mcp. Otherwise stdio.
//   --response-mode auto|sse|json   (HTTP) how modern answers are shaped (default auto)
//
// Tools:
//   echo {text}              text content
//   add {a,b}                structuredContent {sum}, with an outputSchema
//   fails                    isError: true
//   slow {ms,steps}          `steps` notifications/progress (with the request's progressToken),
//                            ms/steps apart, then "done after <steps> steps"
//   never-answer             never answers; writes `waiting <id>` to stderr once its handler runs
//                            and `cancelled <id>` when cancelled (the SDK ignores a cancel that
//                            arrives before the handler started)
//   log {level,message}      notifications/message, sent only when the request's
//                            _meta["io.modelcontextprotocol/logLevel"] lets it through
//   confirm {what}           input_required with a form elicitation (`ok`) and requestState
//                            `confirm:<what>`; on retry "<action>:<content JSON>:<requestState>"
//   ask-model {question}     input_required with a sampling request (`llm`)
//   where                    input_required with a roots request (`roots`)
//   open-url {url}           input_required with a URL-mode elicitation (`visit`)
//   two-rounds               two input rounds: elicits `name`, then `sure`; requestState carries
//                            the first answer; answers "<name>:<sure>"
//   add-tool                 registers tool `extra` (idempotent), which announces tools/list_changed
//   region-query {region, query, limit?, flags:{dry}}  x-mcp-header markings on region (Region),
//                           limit (Limit) and flags.dry (Dry); answers the Mcp-Param-* headers it
//                           saw (HTTP) as "region=<v> limit=<v> dry=<v>"
//   bad-header-tool         an invalid x-mcp-header marking (on an array item): clients on HTTP
//                           must leave it out of their tool list
//   touch {uri}              notifications/resources/updated for that URI: to listen streams
//                            naming it; on a legacy session only after resources/subscribe
// Resources: test://static/hello (text), test://static/blob (blob); template test://items/{id}
//   (completes `id` from 1..12). Prompts: greet {name} (completes `name`), plain,
//   personal (input_required: elicits `name`, then greets it).
// With the 2026 era the SDK serves `subscriptions/listen` itself (stdio listen router).
import { completable, inputRequired, inputResponse, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const argv = process.argv.slice(2);
const legacyIndex = argv.indexOf('--legacy');
const legacy = legacyIndex === -1 ? 'serve' : argv[legacyIndex + 1];
if (legacy !== 'serve' && legacy !== 'reject') {
  process.stderr.write(`--legacy must be serve or reject, not ${legacy}\n`);
  process.exit(2);
}

const NAMES = ['Ada', 'Alan', 'Alice', 'Bob', 'Grace'];
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

function registerTools(server) {
  server.registerTool(
    'echo',
    { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }) => text(value),
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool('fails', { description: 'Always fails', inputSchema: z.object({}) }, async () => ({
    ...text('it failed'),
    isError: true,
  }));

  server.registerTool(
    'slow',
    {
      description: 'Reports progress',
      inputSchema: z.object({ ms: z.number().optional(), steps: z.number().optional() }),
    },
    async ({ ms = 300, steps = 3 }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let done = 1; done <= steps; done++) {
        await sleep(ms / steps, ctx.mcpReq.signal);
        if (ctx.mcpReq.signal.aborted) break;
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: done, total: steps },
          });
      }
      return text(`done after ${steps} steps`);
    },
  );

  server.registerTool(
    'never-answer',
    { description: 'Never answers', inputSchema: z.object({}) },
    async (_args, ctx) => {
      // The SDK drops a cancel for a request whose handler has not started yet: say when it has.
      process.stderr.write(`waiting ${ctx.mcpReq.id}\n`);
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
      process.stderr.write(`cancelled ${ctx.mcpReq.id}\n`);
      return text('cancelled');
    },
  );

  server.registerTool(
    'log',
    { description: 'Logs a message', inputSchema: z.object({ level: z.string(), message: z.string() }) },
    async ({ level, message }, ctx) => {
      await ctx.mcpReq.log(level, message, 'fixture');
      return text('logged');
    },
  );

  server.registerTool(
    'confirm',
    { description: 'Asks the user to confirm', inputSchema: z.object({ what: z.string() }) },
    async ({ what }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'ok');
      if (answer.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            ok: inputRequired.elicit({
              message: `Really ${what}?`,
              requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
            }),
          },
          requestState: `confirm:${what}`,
        });
      }
      return text(`${answer.action}:${JSON.stringify(answer.content ?? null)}:${ctx.mcpReq.requestState() ?? ''}`);
    },
  );

  server.registerTool(
    'ask-model',
    { description: 'Asks the client LLM', inputSchema: z.object({ question: z.string() }) },
    async ({ question }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'llm');
      if (answer.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            llm: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: question } }],
              maxTokens: 50,
            }),
          },
        });
      }
      return text(`model said: ${JSON.stringify(answer.result.content)}`);
    },
  );

  server.registerTool('where', { description: 'Lists client roots', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(answer.roots.map((r) => r.uri).join(','));
  });

  server.registerTool(
    'open-url',
    { description: 'Sends the user to a URL', inputSchema: z.object({ url: z.string() }) },
    async ({ url }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'visit');
      if (answer.kind !== 'elicit')
        return inputRequired({ inputRequests: { visit: inputRequired.elicitUrl({ message: 'Please sign in', url }) } });
      return text(`url ${answer.action}`);
    },
  );

  server.registerTool('two-rounds', { description: 'Asks twice', inputSchema: z.object({}) }, async (_args, ctx) => {
    const state = ctx.mcpReq.requestState();
    const answer = inputResponse(ctx.mcpReq.inputResponses, state === undefined ? 'name' : 'sure');
    if (state === undefined) {
      if (answer.kind !== 'elicit')
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              message: 'Name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          },
        });
      return inputRequired({
        inputRequests: {
          sure: inputRequired.elicit({
            message: 'Sure?',
            requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
          }),
        },
        requestState: `name=${String(answer.content?.name)}`,
      });
    }
    if (answer.kind !== 'elicit') return inputRequired({ requestState: state });
    return text(`${state.slice('name='.length)}:${String(answer.content?.sure)}`);
  });

  const registerExtra = () =>
    server.registerTool('extra', { description: 'Added at run time', inputSchema: z.object({}) }, async () =>
      text('extra'),
    );
  // Over HTTP every request builds a fresh server, so the added tool is a process-wide fact there.
  if (httpExtra) registerExtra();
  server.registerTool('add-tool', { description: 'Adds a tool', inputSchema: z.object({}) }, async () => {
    if (httpHandler) {
      if (!httpExtra) {
        httpExtra = true;
        httpHandler.notify.toolsChanged();
      }
    } else if (!extraTools.has(server)) {
      extraTools.add(server);
      registerExtra();
    }
    return text('added');
  });

  server.registerTool(
    'region-query',
    {
      description: 'Mirrors parameters into Mcp-Param headers',
      inputSchema: z.object({
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        query: z.string(),
        limit: z.number().int().optional().meta({ 'x-mcp-header': 'Limit' }),
        flags: z.object({ dry: z.boolean().meta({ 'x-mcp-header': 'Dry' }) }).optional(),
      }),
    },
    async (_args, ctx) => {
      const headers = ctx.http?.req?.headers;
      const get = (name) => (headers && typeof headers.get === 'function' ? headers.get(name) : headers?.[name]) ?? '-';
      return text(`region=${get('mcp-param-region')} limit=${get('mcp-param-limit')} dry=${get('mcp-param-dry')}`);
    },
  );

  server.registerTool(
    'bad-header-tool',
    {
      description: 'Invalid x-mcp-header marking',
      inputSchema: z.object({ items: z.array(z.string().meta({ 'x-mcp-header': 'Item' })) }),
    },
    async () => text('should never be listed by an HTTP client'),
  );

  server.registerTool(
    'touch',
    { description: 'Announces a resource update', inputSchema: z.object({ uri: z.string() }) },
    async ({ uri }, ctx) => {
      // Modern requests carry the _meta envelope and the SDK's listen router filters by URI; a
      // legacy session gets the notice only after resources/subscribe, as the spec says.
      const modern = ctx.mcpReq.envelope !== undefined;
      if (!modern && !subscribed(server).has(uri)) return text(`not subscribed ${uri}`);
      await server.server.sendResourceUpdated({ uri });
      // Over HTTP every request has its own instance: listen streams hear it through the bus.
      httpHandler?.notify.resourceUpdated(uri);
      return text(`touched ${uri}`);
    },
  );
}
const extraTools = new WeakSet();
let httpExtra = false;
const subscriptions = new WeakMap();
const subscribed = (server) => subscriptions.get(server) ?? subscriptions.set(server, new Set()).get(server);

// McpServer advertises resources.subscribe but registers no legacy resources/subscribe handler
// (it answers -32601); a 2025-era client of this dual-era fixture needs one.
function registerLegacySubscribe(server) {
  server.server.setRequestHandler(
    'resources/subscribe',
    async (request) => (subscribed(server).add(request.params.uri), {}),
  );
  server.server.setRequestHandler(
    'resources/unsubscribe',
    async (request) => (subscribed(server).delete(request.params.uri), {}),
  );
}

function registerResources(server) {
  server.registerResource('hello', 'test://static/hello', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello world' }],
  }));
  server.registerResource('blob', 'test://static/blob', { mimeType: 'application/octet-stream' }, async (uri) => ({
    contents: [
      { uri: uri.href, mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 3]).toString('base64') },
    ],
  }));
  const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
  const items = new ResourceTemplate('test://items/{id}', {
    list: undefined,
    complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
  });
  server.registerResource('item', items, { mimeType: 'text/plain' }, async (uri, { id }) => ({
    contents: [{ uri: uri.href, text: `item ${id}` }],
  }));
}

function registerPrompts(server) {
  const name = completable(z.string(), (value) =>
    NAMES.filter((n) => n.toLowerCase().startsWith(String(value).toLowerCase())),
  );
  server.registerPrompt(
    'greet',
    { description: 'Greets someone', argsSchema: z.object({ name }) },
    async ({ name: who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}` } }],
    }),
  );
  server.registerPrompt('plain', { description: 'No arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'plain prompt' } }],
  }));
  server.registerPrompt('personal', { description: 'Asks who to greet' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'who');
    if (answer.kind !== 'elicit' || answer.action !== 'accept') {
      return inputRequired({
        inputRequests: {
          who: inputRequired.elicit({
            message: 'Who?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
      });
    }
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${String(answer.content?.name)}` } }],
    };
  });
}

function build() {
  const server = new McpServer(
    { name: 'modern-fixture', version: '2.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
      instructions: 'A modern fixture.',
    },
  );
  registerTools(server);
  registerResources(server);
  registerPrompts(server);
  registerLegacySubscribe(server);
  return server;
}

let httpHandler;
if (argv.includes('--http')) {
  const { createServer } = await import('node:http');
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const modeIndex = argv.indexOf('--response-mode');
  const responseMode = modeIndex === -1 ? 'auto' : argv[modeIndex + 1];
  httpHandler = createMcpHandler(build, {
    legacy: legacy === 'serve' ? 'stateless' : 'reject',
    responseMode,
    keepAliveMs: 0,
  });
  const http = createServer(async (req, res) => {
    if (new URL(req.url, 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end('not found');
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      signal: abort.signal,
    });
    let response;
    try {
      response = await httpHandler.fetch(request);
    } catch (error) {
      res.writeHead(500).end(String(error));
      return;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    try {
      for await (const chunk of response.body) res.write(chunk);
    } catch {
      // The client went away.
    }
    res.end();
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`));
  process.on('SIGTERM', () => {
    http.closeAllConnections();
    http.close();
    void httpHandler.close();
    process.exit(0);
  });
} else {
  serveStdio(build, { legacy });
}
