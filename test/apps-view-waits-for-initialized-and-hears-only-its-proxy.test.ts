/**
 * One view's bridge in `mcpwire/apps`, with the browser's parts as doubles (the host page's
 * window, the proxy frame) and a structural client: the proxy's ready is answered with the
 * resource and its policy; until the view says `initialized` the host sends it nothing but the
 * answer to `ui/initialize` (a request before then is refused), then the tool input and the
 * result, in that order; a message from the right window on the wrong origin, or from another
 * window on the right origin, is dropped unread; a teardown the view never answers is bounded
 * and the frame goes anyway; a sandbox on the host page's own origin is refused.
 */
import { describe, expect, it } from 'vitest';
import { AppHost, type AppServerClient } from '../src/apps/index.js';
import type { Tool } from '../src/protocol/types.js';
import { until } from './support/wait.js';

const HOST_ORIGIN = 'http://host.test';
const SANDBOX = 'http://sandbox.test';
const URI = 'ui://fake/view';

type Listener = (event: { source: unknown; origin: string; data: unknown }) => void;

/** The doubles: the page's window, the proxy frame's window (recording what the host posts) and the frame. */
function page() {
  const listeners = new Set<Listener>();
  const posted: Array<{ message: any; origin: string }> = [];
  const proxyWindow = { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) };
  const frame = {
    contentWindow: proxyWindow,
    src: '',
    style: { width: '', height: '', border: '' },
    attributes: {} as Record<string, string>,
    removed: false,
    setAttribute(name: string, value: string) {
      this.attributes[name] = value;
    },
    remove() {
      this.removed = true;
    },
  };
  const window = {
    location: { origin: HOST_ORIGIN },
    addEventListener: (_type: 'message', listener: Listener) => listeners.add(listener),
    removeEventListener: (_type: 'message', listener: Listener) => listeners.delete(listener),
  };
  const container = {
    ownerDocument: { createElement: () => frame, defaultView: window },
    appendChild: () => undefined,
  };
  /** A message arriving at the page from `source` on `origin`. */
  const arrive = (data: unknown, source: unknown = proxyWindow, origin = SANDBOX) => {
    for (const listener of [...listeners]) listener({ source, origin, data });
  };
  return { posted, frame, container, arrive, listeners };
}

const viewTool: Tool = {
  name: 'show',
  inputSchema: { type: 'object' },
  _meta: { 'ui/resourceUri': URI }, // the deprecated flat spelling only
};

function client(): AppServerClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'fake',
    calls,
    listTools: async () => [viewTool],
    callTool: async (name) => {
      calls.push(name);
      return { content: [{ type: 'text', text: `${name} done` }] };
    },
    readResource: async (uri) => ({
      contents: [
        {
          uri,
          mimeType: 'text/html; profile=mcp-app',
          text: '<p>view</p>',
          _meta: { ui: { csp: { connectDomains: ['https://api.example.com', 'bad domain'] } } },
        },
      ],
    }),
  };
}

describe('a view of mcpwire/apps', () => {
  it('is sent nothing but the initialize answer until it says initialized, then input, then result', async () => {
    const { posted, frame, container, arrive } = page();
    const audit: any[] = [];
    const host = new AppHost({
      client: client(),
      container,
      sandboxUrl: `${SANDBOX}/proxy`,
      audit: (e) => audit.push(e),
      // Bounds both the view's getting ready (quick here: the test drives it) and the unanswered teardown below.
      timeoutMs: 3_000,
    });
    const rendering = host.render({ tool: 'show', arguments: { q: 1 } });
    await until(() => frame.src !== '', { what: 'the proxy frame to get its address' });
    expect(new URL(frame.src).searchParams.get('csp')).toBe('{"connectDomains":["https://api.example.com"]}');
    expect(frame.attributes.sandbox).toBe('allow-scripts allow-same-origin allow-forms');

    arrive({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    expect(posted.map((p) => [p.message.method, p.origin])).toEqual([
      ['ui/notifications/sandbox-resource-ready', SANDBOX],
    ]);
    expect(posted[0]!.message.params).toEqual({
      html: '<p>view</p>',
      csp: { connectDomains: ['https://api.example.com'] },
    });

    // Dropped unread: the right window on another origin, another window on the right origin.
    arrive({ jsonrpc: '2.0', id: 'x', method: 'ui/initialize', params: {} }, { postMessage() {} }, SANDBOX);
    arrive({ jsonrpc: '2.0', id: 'y', method: 'ui/initialize', params: {} }, frame.contentWindow, 'http://evil.test');
    expect(posted.map((p) => p.message)).toHaveLength(1);

    arrive({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2025-11-21', appInfo: {} } });
    arrive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'show' } });
    await until(() => posted.length === 3, { what: 'the initialize answer and the refusal' });
    expect(posted[1]!.message).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-21' } });
    expect(posted[2]!.message).toMatchObject({
      id: 2,
      error: { code: -32000, message: 'the view is not initialized' },
    });

    arrive({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    const view = await rendering;
    await until(() => posted.length === 5, { what: 'the tool input and result' });
    expect(posted.slice(3).map((p) => p.message)).toEqual([
      { jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { q: 1 } } },
      {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
        params: { content: [{ type: 'text', text: 'show done' }] },
      },
    ]);
    expect(await view.result).toEqual({ content: [{ type: 'text', text: 'show done' }] });
    expect(audit.map((e) => [e.kind, e.method, e.outcome])).toEqual([
      ['csp', undefined, undefined],
      ['view-request', 'ui/initialize', 'allowed'],
      ['view-request', 'tools/call', { refused: 'the view is not initialized' }],
      ['view-notification', 'ui/notifications/initialized', 'allowed'],
    ]);

    // A teardown the view never answers: bounded, and the frame goes.
    await view.teardown();
    expect(frame.removed).toBe(true);
    expect(posted.at(-1)!.message.method).toBe('ui/resource-teardown');
  }, 20_000);

  it('refuses a sandbox on the host page origin', () => {
    const { container } = page();
    expect(() => new AppHost({ client: client(), container, sandboxUrl: `${HOST_ORIGIN}/proxy` })).toThrow(
      /origin other than the host page/,
    );
  });
});
