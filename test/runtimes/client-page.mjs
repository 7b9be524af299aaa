// mcpwire's client in a browser page, as a web app bundles it (esbuild, platform browser: `mcpwire`
// resolves through the package's exports to its runtime-neutral entry). Loaded by the page of
// test/runtime-chromium-client-*.test.ts, it sets `globalThis.mcpPage`, the steps the test drives
// one `page.evaluate` at a time on one client (every answer plain JSON):
// - open(url, era, listen): connects (CORS: the server is on another loopback origin) → { era, protocolVersion };
// - tools(): the tool names; add(a, b): `add` with its progress → { structuredContent, progress };
// - cancelHold(): `hold`, aborted at its first progress report → the error's code;
// - armToolsChanged() then toolsChanged(): resolves on the client's `toolsChanged` event (bounded: 10 s);
// - register(name): the server registers a tool of that name (a tools/list_changed);
// - startPoll() then finishPoll(): `poll_me`, whose response stream the server closes early; the
//   client resumes it with Last-Event-ID → { content, progress };
// - close().
import { McpClient } from 'mcpwire';

let client;
let changed;
let poll;

/** `promise`, or a rejection naming `what` once `ms` passed. */
function bounded(promise, ms, what) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

globalThis.mcpPage = {
  async open(url, era, listen) {
    client = await McpClient.connect({ url }, { name: 'client-page', era, listen });
    return { era: client.era, protocolVersion: client.protocolVersion };
  },
  async tools() {
    return (await client.listTools({ refresh: true })).map((tool) => tool.name);
  },
  async add(a, b) {
    const progress = [];
    const result = await client.callTool('add', { a, b }, { onProgress: (p) => progress.push(p.progress) });
    return { structuredContent: result.structuredContent, progress };
  },
  async cancelHold() {
    const controller = new AbortController();
    return client
      .callTool('hold', {}, { signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) })
      .then(
        () => 'answered',
        (error) => error?.code ?? String(error),
      );
  },
  armToolsChanged() {
    changed = new Promise((resolve) => {
      const off = client.on('toolsChanged', () => {
        off();
        resolve(true);
      });
    });
  },
  toolsChanged() {
    return bounded(changed, 10_000, 'toolsChanged');
  },
  async register(name) {
    await client.callTool('register', { name });
  },
  startPoll() {
    const progress = [];
    poll = client
      .callTool('poll_me', {}, { onProgress: (p) => progress.push(p.progress) })
      .then((result) => ({ content: result.content, progress }));
  },
  finishPoll() {
    return bounded(poll, 10_000, 'the resumed poll_me');
  },
  async close() {
    await client?.close();
    client = undefined;
  },
};
