/* global window, document */
// An MCP App view as a server ships one: ext-apps' `App` over its `PostMessageTransport` to the
// window that embeds it (the sandbox proxy), bundled with esbuild into one inline script by
// test/support/apps-view.ts. It records what it sees in `globalThis.viewLog` — every message its
// parent posted (with how many it had sent by then), every message it sent, its handlers' calls,
// and the CSP violations of its document — and sets `globalThis.viewSteps`, the requests a test
// asks it to make (each answer plain JSON).
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';

const log = { received: [], sent: [], events: [], violations: [], connected: false, error: undefined };
globalThis.viewLog = log;

window.addEventListener(
  'message',
  (event) => {
    if (event.source === window.parent) log.received.push({ sentBefore: log.sent.length, data: event.data });
  },
  true,
);
document.addEventListener('securitypolicyviolation', (event) =>
  log.violations.push({ blockedURI: event.blockedURI, directive: event.effectiveDirective }),
);

const app = new App({ name: 'test-view', version: '1.0.0' }, {}, { autoResize: false });
app.ontoolinput = (params) => log.events.push({ kind: 'tool-input', arguments: params.arguments });
app.ontoolresult = (result) => log.events.push({ kind: 'tool-result', result });
app.ontoolcancelled = (params) => log.events.push({ kind: 'tool-cancelled', reason: params.reason });
app.onhostcontextchanged = (params) => log.events.push({ kind: 'host-context-changed', params });
app.onteardown = async () => {
  log.events.push({ kind: 'teardown' });
  // Heard by the host's log hook before the answer: proof the teardown reached the view.
  await app.sendLog({ level: 'info', data: 'torn down' });
  return {};
};

const transport = new PostMessageTransport(window.parent, window.parent);
const send = transport.send.bind(transport);
transport.send = (message, options) => {
  log.sent.push(message);
  return send(message, options);
};

/** `{ ok }` with the answer, or `{ error }` with the message of the failure. */
function settle(promise) {
  return promise.then(
    (ok) => ({ ok: ok ?? null }),
    (error) => ({ error: String(error?.message ?? error) }),
  );
}

globalThis.viewSteps = {
  callTool: (name, args) => settle(app.callServerTool({ name, arguments: args })),
  readResource: (uri) => settle(app.readServerResource({ uri })),
  fetch: (url) =>
    fetch(url).then(
      (response) => `fetched ${response.status}`,
      (error) => `failed: ${error.message}`,
    ),
  openLink: (url) => settle(app.openLink({ url })),
  message: (text) => settle(app.sendMessage({ role: 'user', content: [{ type: 'text', text }] })),
  modelContext: (structuredContent) => settle(app.updateModelContext({ structuredContent })),
  displayMode: (mode) => settle(app.requestDisplayMode({ mode })),
  size: (width, height) => settle(app.sendSizeChanged({ width, height })),
  log: (data) => settle(app.sendLog({ level: 'info', data })),
  /** A request posted straight to the host page, around the proxy: the host must not hear it. */
  postToTop: (name) =>
    window.top.postMessage({ jsonrpc: '2.0', id: 'direct-1', method: 'tools/call', params: { name } }, '*'),
  host: () => ({ capabilities: app.getHostCapabilities(), context: app.getHostContext(), info: app.getHostVersion() }),
};

app.connect(transport).then(
  () => (log.connected = true),
  (error) => (log.error = String(error?.message ?? error)),
);
