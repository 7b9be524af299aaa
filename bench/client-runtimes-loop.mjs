// One measured run of mcpwire's client under the runtime that runs this file (node, deno or bun),
// started by bench/client-runtimes.mjs:
//   node|deno|bun bench/client-runtimes-loop.mjs TARGET_JSON WARMUP CALLS [fetch]
// TARGET_JSON is what `McpClient.connect` takes: `{ command, args }` (bench/server.mjs over stdio,
// spawned by the client) or `{ url }` (bench/http-server.mjs, legacy Streamable HTTP). `McpClient`
// comes from the built package (`mcpwire` through its exports: dist/), pinned to the legacy era
// as bench/clients.mjs pins it. WARMUP sequential `echo` calls, then CALLS timed ones; prints
// `BENCH {"calls","wallMs","callsPerSec"}`, closes the client and ends by itself.
import { McpClient } from 'mcpwire';

const { Deno } = globalThis;
const [targetJson, warmup, calls, engine] = Deno ? Deno.args : process.argv.slice(2);
// ENGINE `fetch`: the runtime's own global fetch, given as `McpClient.connect({ url, fetch })`.
const target = { ...JSON.parse(targetJson), ...(engine === 'fetch' ? { fetch: globalThis.fetch } : {}) };
const client = await McpClient.connect(target, { name: 'bench-runtimes', era: 'legacy' });
for (let i = 0; i < Number(warmup); i++) await client.callTool('echo', { text: 'warm' });
const n = Number(calls);
const start = performance.now();
for (let i = 0; i < n; i++) await client.callTool('echo', { text: 'hello' });
const wallMs = performance.now() - start;
// The figure first: under Bun an HTTP client's close() may fail (undici's shim) without an await to catch it.
console.log(`BENCH ${JSON.stringify({ calls: n, wallMs, callsPerSec: n / (wallMs / 1000) })}`);
await client.close();
