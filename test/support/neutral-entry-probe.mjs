// Loads one root entry of the built package (argv[2], a file URL or path) in a fresh process and
// prints, as one JSON line, what a runtime without Node would see: a raw peer on an in-memory
// pair lists a tool with an outputSchema, one call answers structured content that matches it and
// one that does not (the client's check decides), then a stdio connect is tried. Run under
// `--disallow-code-generation-from-strings`, so only the JSON Schema engine without eval can check.
const { McpClient, createLinkedPair } = await import(process.argv[2]);
const [mine, theirs] = createLinkedPair();
const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
theirs.onMessage((message) => {
  if (message.id === undefined) return;
  const answer = (result) => theirs.send({ jsonrpc: '2.0', id: message.id, result });
  if (message.method === 'initialize')
    answer({
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'raw', version: '1.0.0' },
    });
  else if (message.method === 'tools/list')
    answer({ tools: [{ name: 'count', inputSchema: { type: 'object' }, outputSchema }] });
  else if (message.method === 'tools/call')
    answer({ content: [], structuredContent: message.params.arguments.good ? { n: 1 } : { n: 'one' } });
  else theirs.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
const seen = {};
try {
  const client = await McpClient.connect(mine, { era: 'legacy' });
  await client.listTools();
  seen.good = (await client.callTool('count', { good: true })).structuredContent;
  seen.bad = await client.callTool('count', { good: false }).then(
    () => 'accepted',
    (error) => error.code,
  );
  await client.close();
} catch (error) {
  seen.error = `${error.code}: ${error.message}`;
}
seen.stdio = await McpClient.connect({ command: process.execPath, args: ['-e', ''] }, { name: 'local' }).then(
  async (client) => {
    await client.close();
    return { connected: true };
  },
  (error) => ({ code: error.code, server: error.server, message: error.message }),
);
console.log(JSON.stringify(seen));
