/**
 * A host process for the deep-nesting tests, run as `node --import tsx deep-nesting-host.ts
 * <server.mjs> [traced]`: connects to the fixture server over stdio with mcpwire's own source,
 * calls each of its tools, pings, closes, and prints one JSON line (what every call came to, the
 * diagnostics, how many trace records were written). A throw that escapes an event handler kills
 * this process with a non-zero exit code, which is what the tests watch for.
 */
import { McpClient } from '../../src/client/mcp-client.js';
import { installNodeParts } from '../../src/client/node-parts.js';
import type { TraceRecord } from '../../src/observe/trace-record.js';

// A process of its own, outside vitest's setup: stdio comes from the Node parts, as the node entry registers them.
installNodeParts();

const [server, mode] = process.argv.slice(2);
const TOOLS = ['deep-line-then-answer', 'deep-notification', 'deep-result-field', 'deep-error', 'deep-structured'];

const lines: string[] = [];
// Serialised as the JSONL file sink does; a record JSON cannot write would make this throw.
const sink = (record: TraceRecord) => void lines.push(JSON.stringify(record));
const client = await McpClient.connect(
  { command: process.execPath, args: [server!] },
  { name: 'deep', era: 'legacy', requestTimeoutMs: 20_000, ...(mode === 'traced' ? { trace: { sink } } : {}) },
);
const diagnostics: Array<{ kind: string; message: string; sampleLength: number | undefined }> = [];
client.on('diagnostic', (d) =>
  diagnostics.push({ kind: d.kind, message: d.message, sampleLength: (d as { sample?: string }).sample?.length }),
);
let logs = 0;
client.on('log', () => logs++);

const outcomes: Record<string, { ok: true; text: unknown } | { ok: false; code: unknown; message: string }> = {};
for (const tool of TOOLS) {
  try {
    const result = await client.callTool(tool, {});
    outcomes[tool] = { ok: true, text: (result.content[0] as { text?: unknown } | undefined)?.text };
  } catch (error) {
    outcomes[tool] = {
      ok: false,
      code: (error as { code?: unknown }).code,
      message: error instanceof Error ? error.message : 'not an Error',
    };
  }
}
await client.ping();
await client.close();
process.stdout.write(`${JSON.stringify({ outcomes, diagnostics, logs, records: lines.length })}\n`);
