#!/usr/bin/env node
// A kit server (from dist/: run `npm run build` first) on its own stdin/stdout that advertises
// `com.example/reports` and answers `echo/declared` of `com.example/echo` with the extensions the
// client declared (the request's `context.extensions`). Exits when stdin ends.
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const server = new McpServer({
  name: 'kit-extensions',
  version: '1.0.0',
  extensions: { 'com.example/reports': { formats: ['pdf'] } },
});
server.registerExtension({
  id: 'com.example/echo',
  clientMustDeclare: true,
  methods: { 'echo/declared': (_params, context) => ({ declared: context.extensions, era: context.era }) },
});
await server.connect(new StdioServerTransport()).closed;
