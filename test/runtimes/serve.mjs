// Serves a fetch handler with the runtime's own server, the way a team deploying there would:
//   node|deno|bun test/runtimes/serve.mjs APP [--path /mcp]
// APP is a module (a path relative to this directory, or absolute) exporting
// `createApp(env) => Promise<{ fetch(request): Promise<Response>, close(): Promise<void> }>`.
// - Deno: `Deno.serve({ port: 0, hostname: '127.0.0.1', onListen }, app.fetch)`;
// - Bun: `Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })`, Bun's default `idleTimeout`
//   (10 s) left as is: the kit's SSE keep-alives (every 8 s by default) keep a quiet stream open;
// - Node: `@hono/node-server`'s `serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })`.
// Prints `listening on http://127.0.0.1:PORT<path>` on stdout once it accepts connections. On
// SIGTERM or SIGINT it closes the app, then the listener, and ends because nothing is left open
// (it never calls exit): a process that lingers is a leak the test sees.
const { Deno, Bun } = globalThis;
const argv = Deno ? Deno.args : process.argv.slice(2);
const at = argv.indexOf('--path');
const endpoint = at === -1 ? '/mcp' : argv[at + 1];
const appPath = argv[0];
if (!appPath) throw new Error('serve.mjs: name the app module');
const appUrl = appPath.startsWith('/') ? new URL(`file://${appPath}`) : new URL(appPath, import.meta.url);
const { createApp } = await import(appUrl.href);
const env = Deno ? Deno.env.toObject() : process.env;
const app = await createApp(env);
const fetch = (request) => app.fetch(request);
const announce = (port) => console.log(`listening on http://127.0.0.1:${port}${endpoint}`);

/** Runs `stop` once, on the first of SIGTERM and SIGINT. */
function onStopSignal(stop) {
  let stopping = false;
  const once = () => {
    if (stopping) return;
    stopping = true;
    stop().catch((error) => {
      console.error(`serve.mjs: stopping failed: ${error?.stack ?? error}`);
      if (Deno) Deno.exitCode = 1;
      else process.exitCode = 1;
    });
  };
  if (Deno) {
    for (const signal of ['SIGTERM', 'SIGINT']) Deno.addSignalListener(signal, once);
    return () => {
      for (const signal of ['SIGTERM', 'SIGINT']) Deno.removeSignalListener(signal, once);
    };
  }
  process.once('SIGTERM', once);
  process.once('SIGINT', once);
  return () => {
    process.removeListener('SIGTERM', once);
    process.removeListener('SIGINT', once);
  };
}

if (Deno) {
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => announce(port) }, fetch);
  const release = onStopSignal(async () => {
    release();
    await app.close();
    await server.shutdown();
  });
} else if (Bun) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch });
  announce(server.port);
  const release = onStopSignal(async () => {
    release();
    await app.close();
    await server.stop(true);
  });
} else {
  const { serve } = await import('@hono/node-server');
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => announce(info.port));
  const release = onStopSignal(async () => {
    release();
    await app.close();
    server.closeAllConnections?.();
    await new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });
}
