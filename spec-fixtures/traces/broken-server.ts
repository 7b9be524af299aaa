/**
 * Writes `broken-server.jsonl`: traffic of four servers in one file, with one deliberately broken
 * message per rule of mcpwire's own linter (the comment after each says which; the capability
 * rule twice, in its legacy and its 2026 form). Records are
 * made by the same TraceBuilder the tracer and the proxy use, with a fake clock.
 *
 *   npx tsx spec-fixtures/traces/broken-server.ts
 *
 * `test/trace-check-finds-violations.test.ts` lists the record index and rule of each broken
 * message; after an edit here, regenerate and update that table.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceBuilder } from '../../src/observe/trace-builder.js';
import type { TraceDirection, TraceRecord } from '../../src/observe/trace-record.js';

const records: TraceRecord[] = [];
let clock = 0;
const builders = new Map<string, TraceBuilder>();
function builder(server: string): TraceBuilder {
  let b = builders.get(server);
  if (!b) {
    b = new TraceBuilder({ server, now: () => (clock += 0.75) });
    builders.set(server, b);
  }
  return b;
}
const send = (server: string, dir: TraceDirection, message: unknown) =>
  records.push(builder(server).frame(dir, message));
const out = (server: string, message: Record<string, unknown>) => send(server, 'out', { jsonrpc: '2.0', ...message });
const inn = (server: string, message: unknown) =>
  send(server, 'in', Array.isArray(message) ? message : { jsonrpc: '2.0', ...(message as object) });
const clientInfo = { name: 'mcpwire', version: '0.1.0' };

// ---- "old": a 2025-06-18 session; the client declared roots only ----
out('old', {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } }, clientInfo },
});
inn('old', {
  id: 1,
  result: {
    protocolVersion: '2025-06-18',
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
    serverInfo: { name: 'old', version: '1.0.0' },
  },
});
out('old', { method: 'notifications/initialized' });
out('old', { id: 2, method: 'tools/list' });
inn('old', { id: 2, result: { tools: [{ name: 'echo', inputSchema: { type: 'string' } }] } }); // result.tools-list
out('old', { id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
inn('old', { id: 3, result: { content: [{ type: 'text' }] } }); // result.tools-call

// ---- "future": answers initialize with a version nobody offered ----
out('future', { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
inn('future', {
  id: 1,
  result: { protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 'future', version: '9.0.0' } },
}); // initialize.version-unsupported

out('old', { id: 4, method: 'resources/list' });
inn('old', { id: 4, result: { resources: [{ uri: 'test://a', name: 'a' }], nextCursor: 42 } }); // result.next-cursor
out('old', { id: 5, method: 'resources/templates/list' });
inn('old', { id: 5, result: { resourceTemplates: [{ name: 'items' }] } }); // result.resource-templates-list
out('old', { id: 6, method: 'resources/read', params: { uri: 'test://a' } });
inn('old', { id: 6, result: { contents: [{ uri: 'test://a', mimeType: 'text/plain' }] } }); // result.resources-read
out('old', { id: 7, method: 'prompts/list' });
inn('old', { id: 7, result: { prompts: [{ description: 'a prompt without a name' }] } }); // result.prompts-list
out('old', { id: 8, method: 'prompts/get', params: { name: 'greet' } });
inn('old', { id: 8, result: { messages: [{ role: 'system', content: { type: 'text', text: 'hi' } }] } }); // result.prompts-get
out('old', {
  id: 9,
  method: 'completion/complete',
  params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } },
});
inn('old', { id: 9, result: { completion: { values: 'Ada' } } }); // result.completion
inn('old', { id: 99, result: {} }); // jsonrpc.unknown-id
inn('old', {
  id: 0,
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
}); // capability.client-undeclared
out('old', { id: 0, error: { code: -32601, message: 'sampling is not supported' } });
inn('old', { method: 'notifications/elicitation/complete', params: { elicitationId: 'e-1' } }); // method.not-in-revision
inn('old', [
  { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'one' } },
  { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'two' } },
]); // jsonrpc.batch-not-allowed
inn('old', { id: 1, method: 'roots/list' });
inn('old', { id: 1, method: 'roots/list' }); // jsonrpc.duplicate-id
out('old', { id: 1, result: { roots: [] } });
inn('old', { id: 2.5, method: 'ping' }); // jsonrpc.id-type
send('old', 'in', { jsonrpc: '1.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }); // jsonrpc.version
records.push(builder('old').invalid('in', 'garbage {')); // jsonrpc.parse
inn('old', { id: 3, method: 'tools/call', params: { name: 'echo' } }); // method.wrong-direction
inn('old', { id: 4, method: 'notifications/tools/list_changed' }); // method.wrong-kind
inn('old', { id: 5, result: {}, error: { code: -32603, message: 'both' } }); // jsonrpc.shape
out('old', { id: 10, method: 'resources/list', params: { cursor: 'page-2' } });
inn('old', { id: 10, result: { resources: [{ name: 'unaddressed' }] } }); // result.resources-list

// ---- "nameless": a 2024-11-05 server that forgets serverInfo ----
out('nameless', {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo },
});
inn('nameless', { id: 1, result: { protocolVersion: '2024-11-05', capabilities: {} } }); // result.initialize

// ---- "modern": 2026-07-28; the client declares no capabilities ----
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': clientInfo,
};
const cache = { ttlMs: 0, cacheScope: 'public' };
out('modern', { id: 1, method: 'server/discover', params: { _meta: meta } });
inn('modern', {
  id: 1,
  result: {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {}, prompts: {}, resources: {} },
    ...cache,
  },
});
out('modern', { id: 2, method: 'tools/call', params: { name: 'deploy', arguments: {}, _meta: meta } });
inn('modern', {
  id: 2,
  result: {
    resultType: 'input_required',
    inputRequests: {
      ok: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: {} } },
      },
    },
    requestState: 's-1',
  },
}); // capability.client-undeclared, its 2026 form: an input request the request's _meta did not declare
out('modern', { id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } } }); // modern.protocol-version-missing
inn('modern', { id: 3, result: { resultType: 'complete', tools: [], ...cache } });
out('modern', { id: 4, method: 'prompts/list', params: { _meta: meta } });
inn('modern', { id: 4, result: { prompts: [], ...cache } }); // result.result-type
out('modern', { id: 5, method: 'tools/list', params: { _meta: meta } });
inn('modern', { id: 5, result: { resultType: 'input_required', requestState: 'x' } }); // result.input-required
out('modern', { id: 6, method: 'resources/list', params: { _meta: meta } });
inn('modern', { id: 6, result: { resultType: 'complete', resources: [] } }); // result.cache
out('modern', { id: 7, method: 'server/discover', params: { _meta: meta } });
inn('modern', { id: 7, result: { resultType: 'complete', capabilities: {}, ...cache } }); // result.discover
out('modern', {
  id: 8,
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
}); // modern.client-capabilities-missing
inn('modern', { id: 8, result: { resultType: 'complete', tools: [], ...cache } });

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'broken-server.jsonl');
writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
console.log(`broken-server.jsonl: ${records.length} records`);
