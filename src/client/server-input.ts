/**
 * Server input — sampling, elicitation and roots — through one handler API in both eras.
 * Legacy servers send them as server→client requests; 2026-07-28 servers return an
 * `input_required` result whose `inputRequests` the client fulfils and sends back on a retry.
 * Registering a handler is what declares the capability: nothing is advertised without one.
 */
import { McpError } from '../protocol/errors.js';
import type { Era } from '../protocol/revisions.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  InputRequest,
  Root,
} from '../protocol/types.js';

/** What a handler learns about the request that needs input. */
export interface ServerInputContext {
  /** The server's display name. */
  server: string;
  /** Which era delivered the request. */
  era: Era;
  /**
   * Aborted when the connection closes, and: legacy era, when the server cancels its request
   * (a legacy server request carries no link to the call that caused it, so aborting that call
   * does not reach the handler); modern era, when the originating call's signal aborts.
   */
  signal: AbortSignal;
}

/** The handlers a client offers. Each one present declares the matching client capability. */
export interface ServerInputHandlers {
  /** Answers `sampling/createMessage` (deprecated in 2026-07-28 but still served). */
  sampling?: (
    params: CreateMessageParams,
    context: ServerInputContext,
  ) => Promise<CreateMessageResult> | CreateMessageResult;
  /** Answers `elicitation/create` in form mode and, if `elicitationModes` includes it, URL mode. */
  elicitation?: (params: ElicitParams, context: ServerInputContext) => Promise<ElicitResult> | ElicitResult;
  /** Lists the client's roots (deprecated in 2026-07-28 but still served). */
  roots?: (context: ServerInputContext) => Promise<Root[]> | Root[];
}

/** Elicitation modes the client supports; default both. */
export type ElicitationMode = 'form' | 'url';

/** The client capabilities implied by the registered handlers. */
export function capabilitiesFor(
  handlers: ServerInputHandlers,
  modes: readonly ElicitationMode[] = ['form', 'url'],
): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers.roots) caps.roots = { listChanged: true };
  if (handlers.sampling) caps.sampling = {};
  if (handlers.elicitation && modes.length > 0) {
    caps.elicitation = {};
    for (const mode of modes) caps.elicitation[mode] = {};
  }
  return caps;
}

/**
 * Runs the handler for one input request and returns its bare result (no `resultType`).
 * Rejects with `INPUT_UNSUPPORTED` when no handler serves the method (the server asked for a
 * capability the client did not declare).
 */
export async function fulfilInput(
  request: InputRequest,
  handlers: ServerInputHandlers,
  context: ServerInputContext,
  modes: readonly ElicitationMode[] = ['form', 'url'],
): Promise<Record<string, unknown>> {
  const params = request.params ?? {};
  switch (request.method) {
    case 'sampling/createMessage':
      if (handlers.sampling) return { ...(await handlers.sampling(params as CreateMessageParams, context)) };
      break;
    case 'elicitation/create': {
      const mode = (params.mode as ElicitationMode | undefined) ?? 'form';
      if (handlers.elicitation && modes.includes(mode))
        return { ...(await handlers.elicitation(params as unknown as ElicitParams, context)) };
      break;
    }
    case 'roots/list':
      if (handlers.roots) return { roots: await handlers.roots(context) };
      break;
  }
  throw new McpError('INPUT_UNSUPPORTED', `asked for "${request.method}", which this client did not declare`, {
    server: context.server,
    rpcCode: -32601,
  });
}

/**
 * Fulfils every input request of a 2026 `input_required` result at once, keyed as the server
 * keyed them (the retry's `inputResponses`). Rejects as soon as one of them cannot be served.
 */
export async function fulfilAll(
  requests: Record<string, InputRequest>,
  handlers: ServerInputHandlers,
  context: ServerInputContext,
  modes?: readonly ElicitationMode[],
): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(requests).map(
      async ([key, request]) => [key, await fulfilInput(request, handlers, context, modes)] as const,
    ),
  );
  return Object.fromEntries(entries);
}
