#!/usr/bin/env node
// An agent on mcpwire's client with OpenTelemetry set up (otel-node.mjs) and no tracing code
// beyond that: inside its own span "agent turn" it connects to the server named by argv[2] (JSON:
// `{command,args,env}` or `{url}`), in the era argv[3] (`legacy` or `modern`), calls `echo`,
// closes, flushes its spans, and prints `{"ok":true,"protocolVersion":…}`.
import { McpClient } from 'mcpwire';
import { startTelemetry } from './otel-node.mjs';

const telemetry = startTelemetry('agent');
const target = JSON.parse(process.argv[2]);
const era = process.argv[3];
const protocolVersion = await telemetry.tracer.startActiveSpan('agent turn', async (span) => {
  try {
    const client = await McpClient.connect(target, { era, name: 'kit' });
    try {
      await client.callTool('echo', { text: 'traced' });
      return client.protocolVersion;
    } finally {
      await client.close();
    }
  } finally {
    span.end();
  }
});
await telemetry.shutdown();
process.stdout.write(`${JSON.stringify({ ok: true, protocolVersion })}\n`);
