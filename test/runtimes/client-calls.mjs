// mcpwire's client as a user on node, deno or bun runs it: `McpClient` from the built package
// (`mcpwire`, resolved through package.json's exports to dist/), one server, the calls every
// agent makes, then close. Run by test/support/runtimes.ts (`runClient`):
//   node|deno|bun test/runtimes/client-calls.mjs PROFILE TARGET_JSON [ERA]
// TARGET_JSON is what `McpClient.connect` takes (`{ command, args }` or `{ url }`); ERA pins
// `legacy` or `modern` (default: the client probes). PROFILE names the server's tools:
// - `everything` (@modelcontextprotocol/server-everything): `get-sum` for a plain call,
//   `trigger-long-running-operation` with progress, the same cancelled at its first progress
//   report, then `echo` proves the connection still serves;
// - `kit` (test/runtimes/kit.mjs): `add` with progress 1/2 2/2 and a structured result the client
//   validates against the tool's outputSchema, `gate` cancelled at its first progress report, then
//   `aborts` is asked until the tool saw the abort (bounded: 200 asks).
// Prints one line `RESULT {json}` with what it saw, and ends by itself, never by exit(): a
// process that lingers is a handle the client left open, which the test sees as a timeout. A
// failure prints `FAILED <stack>` on stderr and sets the exit code 1.
import { McpClient } from 'mcpwire';

const { Deno } = globalThis;
const argv = Deno ? Deno.args : process.argv.slice(2);
const [profile, targetJson, era] = argv;
const setExitCode = (code) => (Deno ? (Deno.exitCode = code) : (process.exitCode = code));

const PROFILES = {
  everything: {
    call: ['get-sum', { a: 2, b: 40 }],
    progress: ['trigger-long-running-operation', { duration: 0.3, steps: 3 }],
    cancel: ['trigger-long-running-operation', { duration: 10, steps: 100 }],
    after: ['echo', { message: 'still here' }],
  },
  kit: {
    call: ['add', { a: 2, b: 3 }],
    progress: ['add', { a: 40, b: 2 }],
    cancel: ['gate', {}],
    after: ['aborts', {}],
  },
};

/** What the tool `aborts` reports (kit only). */
async function abortsSeen(client) {
  return (await client.callTool('aborts', {})).structuredContent.aborts;
}

async function run() {
  const tools = PROFILES[profile];
  if (!tools) throw new Error(`client-calls.mjs: PROFILE must be everything or kit, got ${profile}`);
  const target = JSON.parse(targetJson);
  const client = await McpClient.connect(target, {
    name: `client-calls-${profile}`,
    ...(era ? { era } : {}),
    ...(era === 'modern' ? { listen: false } : {}),
  });
  try {
    const seen = { era: client.era, protocolVersion: client.protocolVersion, serverName: client.serverInfo?.name };
    seen.tools = (await client.listTools()).map((tool) => tool.name);
    const call = await client.callTool(...tools.call);
    seen.call = call.structuredContent ?? call.content;
    const progress = [];
    const withProgress = await client.callTool(tools.progress[0], tools.progress[1], {
      onProgress: (p) => progress.push(p.progress),
    });
    seen.progress = progress;
    seen.progressResult = withProgress.structuredContent ?? withProgress.content;
    const before = profile === 'kit' ? await abortsSeen(client) : 0;
    const controller = new AbortController();
    const cancelled = await client
      .callTool(tools.cancel[0], tools.cancel[1], {
        signal: controller.signal,
        onProgress: () => controller.abort(new Error('user pressed stop')),
      })
      .then(
        () => 'answered',
        (error) => error?.code ?? String(error),
      );
    seen.cancelled = cancelled;
    if (profile === 'kit') {
      let aborts = before;
      for (let asks = 0; asks < 200 && aborts <= before; asks++) aborts = await abortsSeen(client);
      seen.toolSawAbort = aborts > before;
    }
    const after = await client.callTool(...tools.after);
    seen.after = after.structuredContent ?? after.content;
    seen.pid = client.pid ?? null;
    console.log(`RESULT ${JSON.stringify(seen)}`);
  } finally {
    await client.close();
  }
}

run().catch((error) => {
  console.error(`FAILED ${error?.stack ?? error}`);
  setExitCode(1);
});
