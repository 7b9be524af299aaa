// mcpwire's client in a Worker, as a Workers build bundles it (test/support/runtimes.ts:
// esbuild, platform neutral, conditions workerd/worker/browser, so `mcpwire` resolves through the
// package's exports to its runtime-neutral entry). Each request connects to a loopback MCP server
// (the Worker's fetch reaches 127.0.0.1 through the loopback network service of its config),
// calls a tool, closes, and answers with what it got as JSON:
// - GET /call?era=modern|legacy: `add` { a: 2, b: 3 } on env.MCP_URL, with its progress; the
//   client checks the structured result against the tool's outputSchema (with no eval: workerd
//   forbids code generation from strings) → { era, protocolVersion, structuredContent, progress };
// - GET /lying: the same call on env.LYING_URL, whose tools/list says `sum` is a string → the
//   client's validator refuses the result: { rejected: code, message } (or { answered } if not).
// A failure answers 500 with `{ error, stack }`.
import { McpClient } from 'mcpwire';

/** Connects to `url`, runs `use(client)`, closes whatever happened. */
async function withClient(url, era, use) {
  const client = await McpClient.connect({ url }, { name: 'client-worker', era, listen: false });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function call(url, era) {
  return withClient(url, era, async (client) => {
    const progress = [];
    const result = await client.callTool('add', { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) });
    return {
      era: client.era,
      protocolVersion: client.protocolVersion,
      structuredContent: result.structuredContent,
      progress,
    };
  });
}

async function lying(url) {
  return withClient(url, 'modern', (client) =>
    client.callTool('add', { a: 2, b: 3 }).then(
      (result) => ({ answered: result.structuredContent }),
      (error) => ({ rejected: error?.code ?? 'no code', message: String(error?.message ?? error) }),
    ),
  );
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/.well-known/ready') return new Response('ready');
      if (url.pathname === '/call') return Response.json(await call(env.MCP_URL, url.searchParams.get('era')));
      if (url.pathname === '/lying') return Response.json(await lying(env.LYING_URL));
      return new Response('not found', { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error?.message ?? error), stack: error?.stack }, { status: 500 });
    }
  },
};
