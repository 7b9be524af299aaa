#!/usr/bin/env node
// An agent on mcpwire's client with OpenTelemetry set up (otel-node.mjs) and no tracing code
// beyond that: inside its own span "agent turn" it connects to the server named by argv[2] (JSON:
// `{command,args,env}` or `{url,headers?}`), in the era argv[3] (`legacy` or `modern`), calls the
// tool argv[4] (default `echo`) with `{text}`, closes, flushes its spans, and prints
// `{"ok":true,"protocolVersion":…,"traceId":…}` (the turn's trace).
import { McpClient } from 'mcpwire';
import { startTelemetry } from './otel-node.mjs';

const telemetry = startTelemetry('agent');
const target = JSON.parse(process.argv[2]);
const era = process.argv[3];
const tool = process.argv[4] ?? 'echo';
const outcome = await telemetry.tracer.startActiveSpan('agent turn', async (span) => {
  try {
    const client = await McpClient.connect(target, { era, name: 'kit' });
    try {
      await client.callTool(tool, { text: 'traced' });
      return { protocolVersion: client.protocolVersion, traceId: span.spanContext().traceId };
    } finally {
      await client.close();
    }
  } finally {
    span.end();
  }
});
await telemetry.shutdown();
process.stdout.write(`${JSON.stringify({ ok: true, ...outcome })}\n`);
