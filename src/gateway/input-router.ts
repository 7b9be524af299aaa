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
 *
 * A 2026 downstream client answers input in rounds: the kit ends the call with `input_required`
 * and runs the handler again, from the top, on the round that carries the answer. So when the
 * kit says this round cannot answer (`InputRequiredSignal`), the router keeps that on the call
 * and aborts the upstream call; the forwarder then ends the call with it, and on the next round
 * the upstream call is made again and its question answered. (A legacy upstream's tool thus runs
 * again from its start: what it did before asking is done twice.)
 */
import { McpError } from '../protocol/errors.js';
import type { ServerInputContext, ServerInputHandlers } from '../client/server-input.js';
import { InputRequiredSignal } from '../server/input/input-round.js';
import type { RequestContext } from '../server/server-types.js';

/** One downstream call in flight on an upstream. */
export interface InFlightCall {
  readonly context: RequestContext;
  /** Aborted with the downstream request, or when this round of a 2026 client cannot answer input. */
  readonly signal: AbortSignal;
  /** The kit's "ask on the next round" of this call, once an input request met it. */
  readonly inputRequired: InputRequiredSignal | undefined;
  /** Ends the call's tracking. Idempotent. */
  done(): void;
}

interface Entry extends InFlightCall {
  inputRequired: InputRequiredSignal | undefined;
  /** A 2026 caller's call's own controller; undefined for a legacy caller (its signal is the request's). */
  abort: AbortController | undefined;
}

export class InputRouter {
  private readonly inFlight = new Map<string, Set<Entry>>();

  /** The handlers every upstream client is made with: each one declares its capability upstream. */
  readonly handlers: ServerInputHandlers = {
    sampling: (params, context) => this.ask(context, 'sampling/createMessage', (call) => call.sample(params)),
    elicitation: (params, context) => this.ask(context, 'elicitation/create', (call) => call.elicit(params)),
    roots: async (context) => (await this.ask(context, 'roots/list', (call) => call.listRoots())).roots,
  };

  /** Marks a downstream call to `server` as in flight until `done()`. */
  enter(server: string, context: RequestContext): InFlightCall {
    let calls = this.inFlight.get(server);
    if (!calls) this.inFlight.set(server, (calls = new Set()));
    const downstream = context.signal;
    // Only a 2026 caller's round can end before its upstream call does (InputRequiredSignal): its
    // call gets a controller of its own that follows the downstream signal through one listener
    // (cheaper than `AbortSignal.any`, weak references on Node 20); a legacy caller's is its own.
    const abort = context.era === 'modern' ? new AbortController() : undefined;
    const follow = abort ? () => abort.abort(downstream.reason) : undefined;
    if (follow) {
      if (downstream.aborted) follow();
      else downstream.addEventListener('abort', follow, { once: true });
    }
    const entry: Entry = {
      context,
      abort,
      signal: abort ? abort.signal : downstream,
      inputRequired: undefined,
      done: () => {
        if (follow) downstream.removeEventListener('abort', follow);
        calls.delete(entry);
        if (calls.size === 0 && this.inFlight.get(server) === calls) this.inFlight.delete(server);
      },
    };
    calls.add(entry);
    return entry;
  }

  /** How many downstream calls are in flight on `server`. */
  count(server: string): number {
    return this.inFlight.get(server)?.size ?? 0;
  }

  /** The one downstream call in flight on `server`, or undefined when there is none or more than one. */
  soleCall(server: string): RequestContext | undefined {
    return this.sole(server)?.context;
  }

  private sole(server: string): Entry | undefined {
    const calls = this.inFlight.get(server);
    return calls?.size === 1 ? calls.values().next().value : undefined;
  }

  /** Asks the caller behind `context`'s server; a round that cannot answer ends the upstream call. */
  private async ask<T>(
    context: ServerInputContext,
    method: string,
    ask: (call: RequestContext) => Promise<T>,
  ): Promise<T> {
    const call = this.caller(context, method);
    try {
      return await ask(call.context);
    } catch (error) {
      if (error instanceof InputRequiredSignal) {
        call.inputRequired ??= error;
        call.abort?.abort(error);
      }
      throw error;
    }
  }

  private caller(context: ServerInputContext, method: string): Entry {
    const call = this.sole(context.server);
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
