// The one `echo {text}` tool every bench server serves, built once per library: mcpwire's kit
// (from whichever build the caller imported) and the SDK 2.x server's stateless fetch handler.

/** An mcpwire `McpServer` (from the `kit` module the caller loaded) with the `echo` tool. */
export function mcpwireEchoServer(kit) {
  const server = new kit.McpServer({ name: 'echo', version: '1.0.0', logger: () => undefined });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
  });
  return server;
}

/** `@modelcontextprotocol/server` 2.x: a factory of `McpServer`s with the `echo` tool (one per request or session). */
export async function sdkV2EchoFactory() {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const z = await import('zod');
  return () => {
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
}

/** The SDK 2.x `createMcpHandler` over that factory, stateless (`legacy: 'stateless'`): `{ fetch(Request) }`. */
export async function sdkV2EchoHandler() {
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  return createMcpHandler(await sdkV2EchoFactory(), { legacy: 'stateless', keepAliveMs: 0 });
}
