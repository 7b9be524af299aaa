#!/usr/bin/env node
// A real 2026-07-28 server built on the official v2 server package (`@modelcontextprotocol/server`),
// served over stdio by `serveStdio`. Dual-era by default; `--legacy reject` makes it modern-only.
// Test fixture only: nothing under src/ may import an SDK.
//
// Tools: echo {text}; add {a,b} (outputSchema + structuredContent); confirm {what} (asks for a
// form elicitation through an input_required result, then answers with the decision);
// ask-model {question} (asks for sampling the same way); where (asks for roots); add-tool (adds a
// tool `extra` and announces the list change).
// Resources: test://static/hello (text); template test://items/{id}. Prompts: greet {name}.
import { inputRequired, inputResponse, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const argv = process.argv.slice(2);
const legacyIndex = argv.indexOf('--legacy');
const legacy = legacyIndex === -1 ? 'serve' : argv[legacyIndex + 1];

function build() {
  const server = new McpServer({ name: 'modern-fixture', version: '2.0.0' }, { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } }, instructions: 'A modern fixture.' });

  server.registerTool('echo', { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));

  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool('confirm', { description: 'Asks the user to confirm', inputSchema: z.object({ what: z.string() }) }, async ({ what }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'ok');
    if (answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: { ok: inputRequired.elicit({ message: `Really ${what}?`, requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } }) },
        requestState: `confirm:${what}`,
      });
    }
    return { content: [{ type: 'text', text: `${answer.action}:${JSON.stringify(answer.content ?? null)}:${ctx.mcpReq.requestState?.() ?? ''}` }] };
  });

  server.registerTool('ask-model', { description: 'Asks the client LLM', inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'llm');
    if (answer.kind !== 'sampling') {
      return inputRequired({ inputRequests: { llm: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 50 }) } });
    }
    return { content: [{ type: 'text', text: `model said: ${JSON.stringify(answer.result.content)}` }] };
  });

  server.registerTool('where', { description: 'Lists client roots', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return { content: [{ type: 'text', text: answer.roots.map((r) => r.uri).join(',') }] };
  });

  server.registerTool('add-tool', { description: 'Adds a tool', inputSchema: z.object({}) }, async () => {
    server.registerTool('extra', { description: 'Added at run time', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'extra' }] }));
    return { content: [{ type: 'text', text: 'added' }] };
  });

  server.registerResource('hello', 'test://static/hello', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello world' }] }));
  server.registerResource('item', new ResourceTemplate('test://items/{id}', { list: undefined }), { mimeType: 'text/plain' }, async (uri, { id }) => ({
    contents: [{ uri: uri.href, text: `item ${id}` }],
  }));

  server.registerPrompt('greet', { description: 'Greets someone', argsSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}` } }],
  }));
  return server;
}

serveStdio(build, { legacy });
