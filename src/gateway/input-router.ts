/**
 * Routes an upstream's requests for input — sampling, elicitation, roots — to the downstream
 * client whose call caused them. The gateway's upstream clients are shared by every downstream
 * caller, and a server's request carries no link to the call it serves (legacy servers send it
 * beside the call; a 2026 server's input round reaches the client's handlers without the call),
 * so the router keeps the downstream calls in flight per upstream server:
 *
 * - exactly one call in flight on that server: the request goes to that call's client (through
 *   the kit's `context.elicit` / `sample` / `listRoots`, which a 2026 downstream client gets as
 *   an input round and a legacy one as a request);
 * - none, or several: refused with `INPUT_UNSUPPORTED` naming the server, since asking the wrong
 *   user would leak one caller's question to another. Never a guess.
 */
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import type { ServerInputContext, ServerInputHandlers } from '../client/server-input.js';
import type { RequestContext } from '../server/server-types.js';

export class InputRouter {
  private readonly inFlight = new Map<string, Set<RequestContext>>();

  /** The handlers every upstream client is made with: each one declares its capability upstream. */
  readonly handlers: ServerInputHandlers = {
    sampling: (params, context) => this.caller(context, 'sampling/createMessage').sample(params),
    elicitation: (params, context) => this.caller(context, 'elicitation/create').elicit(params),
    roots: async (context) => (await this.caller(context, 'roots/list').listRoots()).roots,
  };

  /** Marks a downstream call to `server` as in flight until the disposer runs. */
  enter(server: string, context: RequestContext): Disposer {
    let calls = this.inFlight.get(server);
    if (!calls) this.inFlight.set(server, (calls = new Set()));
    calls.add(context);
    return () => {
      calls.delete(context);
      if (calls.size === 0 && this.inFlight.get(server) === calls) this.inFlight.delete(server);
    };
  }

  /** The one downstream call in flight on `server`, or undefined when there is none or more than one. */
  soleCall(server: string): RequestContext | undefined {
    const calls = this.inFlight.get(server);
    return calls?.size === 1 ? calls.values().next().value : undefined;
  }

  private caller(context: ServerInputContext, method: string): RequestContext {
    const call = this.soleCall(context.server);
    if (call) return call;
    const count = this.inFlight.get(context.server)?.size ?? 0;
    throw new McpError(
      'INPUT_UNSUPPORTED',
      count === 0
        ? `asked for "${method}" outside any call through the gateway`
        : `asked for "${method}" while ${count} calls through the gateway are in flight; the gateway cannot tell which caller to ask`,
      { server: context.server, rpcCode: -32601 },
    );
  }
}
