#!/usr/bin/env node
// The conformance server: the official suite's server scenarios run against it.
//   node test/conformance/server.mjs --port PORT     (serves http://127.0.0.1:PORT/mcp; PORT 0: any)
// Built on the kit from dist/ (`npm run build` first), with the tool names the suite expects.
// Prints `{"msg":"listening","url":…}` on stderr when ready. Not here yet (the kit sends no
// server→client requests): the sampling and elicitation scenarios.
import http from 'node:http';
import { createHttpHandler, McpServer, ToolError } from 'mcpwire/server';

const at = process.argv.indexOf('--port');
const port = at === -1 ? 0 : Number(process.argv[at + 1]);

// A 1×1 red PNG and a tiny silent WAV.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const wait = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});
const NO_ARGS = { type: 'object', properties: {} };

const server = new McpServer({ name: 'mcpwire-conformance-server', version: '1.0.0' });
server.registerTool({ name: 'test_simple_text', description: 'Returns simple text', inputSchema: NO_ARGS, handler: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }) });
server.registerTool({ name: 'test_image_content', description: 'Returns an image', inputSchema: NO_ARGS, handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }) });
server.registerTool({ name: 'test_audio_content', description: 'Returns audio', inputSchema: NO_ARGS, handler: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }) });
server.registerTool({
  name: 'test_embedded_resource',
  description: 'Returns an embedded resource',
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] }),
});
server.registerTool({
  name: 'test_multiple_content_types',
  description: 'Returns text, an image and a resource',
  inputSchema: NO_ARGS,
  handler: () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }),
});
server.registerTool({
  name: 'test_tool_with_logging',
  description: 'Sends three log messages while it runs',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.log('info', 'Tool execution started');
    await wait(50, context.signal);
    context.log('info', 'Tool processing data');
    await wait(50, context.signal);
    context.log('info', 'Tool execution completed');
    return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
  },
});
server.registerTool({
  name: 'test_tool_with_progress',
  description: 'Reports progress 0, 50, 100 of 100',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.progress(0, 100);
    await wait(50, context.signal);
    context.progress(50, 100);
    await wait(50, context.signal);
    context.progress(100, 100);
    return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
  },
});
server.registerTool({
  name: 'test_error_handling',
  description: 'Always fails',
  inputSchema: NO_ARGS,
  handler: () => {
    throw new ToolError('TEST_ERROR', 'This tool intentionally returns an error for testing');
  },
});
server.registerTool({
  name: 'json_schema_2020_12_tool',
  description: 'A tool whose inputSchema uses JSON Schema 2020-12 keywords',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  },
  handler: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
});

server.registerResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain', read: (uri) => [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] });
server.registerResource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource', mimeType: 'image/png', read: (uri) => [{ uri, mimeType: 'image/png', blob: PNG }] });
server.registerResource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource to subscribe to', mimeType: 'text/plain', read: (uri) => [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }] });
server.registerResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'template-data',
  description: 'Data for an id',
  mimeType: 'application/json',
  read: (uri, { id }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  complete: { id: (value) => ['123', '456', '789'].filter((v) => v.startsWith(value)) },
});
server.registerPrompt({ name: 'test_simple_prompt', description: 'A simple prompt', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }) });
server.registerPrompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt with arguments',
  arguments: [
    { name: 'arg1', description: 'First test argument', required: true },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
  get: ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  complete: { arg1: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)) },
});
server.registerPrompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt embedding a resource',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  get: ({ resourceUri }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
});
server.registerPrompt({
  name: 'test_prompt_with_image',
  description: 'A prompt with an image',
  get: () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
});

const handler = createHttpHandler(server, { path: '/mcp' });
const listener = http.createServer(handler);
listener.listen(port, '127.0.0.1', () => {
  process.stderr.write(`${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${listener.address().port}/mcp` })}\n`);
});
const stop = async () => {
  await handler.close({ graceMs: 2000 });
  listener.closeAllConnections();
  listener.close();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
