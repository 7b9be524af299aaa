#!/usr/bin/env node
// The scripted legacy server (same flags) after two lines of junk on stdout: a log line that is
// not JSON and a truncated JSON object, written before the server reads anything. For tests of
// what a client (or a tracer) does with junk from a real MCP server.
process.stdout.write('booting the server... (not JSON)\n{"half": \n');
await import('../../spec-fixtures/servers/legacy/scripted-server.mjs');
