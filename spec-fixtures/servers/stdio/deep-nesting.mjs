// A legacy server (2025-06-18, no SDK) that answers with values nested deeper than any recursive
// walk survives: `JSON.stringify`, `String` and schema validators all overflow the stack on them,
// while `JSON.parse` reads them fine. Flags: `--depth <n>` (default 100000).
//
// Tools (tools/call name → what comes back):
//   deep-line-then-answer   first a bare line `[[[…]]]` (the nested array alone), then the result
//   deep-structured         a result whose structuredContent.deep is the nested array; the tool's
//                           outputSchema describes arrays of arrays recursively
//   deep-result-field       a response whose `result` is the nested array itself (malformed)
//   deep-error              a JSON-RPC error whose `data` is the nested array
//   deep-notification       first `notifications/message` whose data is the nested array, then the result
//   deep-content            a valid result: one text block "deep" whose `_meta.deep` is the nested array
//   deep-structured-unchecked  a valid result: no content, structuredContent.deep the nested array, and
//                           no outputSchema to check it against
// `ping` is answered with {}; stdin EOF ends the process.
import { createInterface } from 'node:readline';

const at = process.argv.indexOf('--depth');
const depth = at === -1 ? 100_000 : Number(process.argv[at + 1]);
const nested = '['.repeat(depth) + ']'.repeat(depth);

const nestSchema = {
  type: 'object',
  properties: { deep: { $ref: '#/definitions/nest' } },
  definitions: { nest: { type: 'array', items: { $ref: '#/definitions/nest' } } },
};
const tools = [
  'deep-line-then-answer',
  'deep-structured',
  'deep-result-field',
  'deep-error',
  'deep-notification',
  'deep-content',
  'deep-structured-unchecked',
].map((name) => ({
  name,
  inputSchema: { type: 'object' },
  ...(name === 'deep-structured' ? { outputSchema: nestSchema } : {}),
}));

const send = (line) => process.stdout.write(`${line}\n`);
const answer = (id, result) => send(JSON.stringify({ jsonrpc: '2.0', id, result }));
const done = (id) => answer(id, { content: [{ type: 'text', text: 'answered' }] });

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line);
  const { id, method } = message;
  if (id === undefined) return;
  if (method === 'initialize') {
    return answer(id, {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'deep-nesting', version: '1.0.0' },
    });
  }
  if (method === 'ping') return answer(id, {});
  if (method === 'tools/list') return answer(id, { tools });
  if (method !== 'tools/call') {
    return send(
      JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } }),
    );
  }
  switch (message.params?.name) {
    case 'deep-line-then-answer':
      send(nested);
      return done(id);
    case 'deep-structured':
      return send(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"structuredContent":{"deep":${nested}}}}`,
      );
    case 'deep-result-field':
      return send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${nested}}`);
    case 'deep-error':
      return send(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32000,"message":"deep data","data":${nested}}}`,
      );
    case 'deep-notification':
      send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${nested}}}`);
      return done(id);
    case 'deep-content':
      return send(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"deep","_meta":{"deep":${nested}}}]}}`,
      );
    case 'deep-structured-unchecked':
      return send(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"structuredContent":{"deep":${nested}}}}`,
      );
    default:
      return send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'unknown tool' } }));
  }
});
rl.on('close', () => process.exit(0));
