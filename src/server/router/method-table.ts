/**
 * The shape of the router's method tables: one per era (legacy, modern) and one both share, each
 * mapping a method to a handler `(params, call) => result`. A handler returns the result (the
 * runner adds what its era's results carry) or throws a {@link RequestFault}; it never builds a
 * JSON-RPC message.
 */
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { ProtocolRevision } from '../../protocol/revisions.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../../protocol/types.js';
import type { RequestLink } from './request-link.js';
import type { ServerCore } from './server-core.js';

/** A request's params as an object (`{}` when it sent none, or an array). */
export type Params = Record<string, unknown>;

/** What a request says about its client (the era's envelope or session): revision, capabilities, info, log level. */
export interface RequestFacts {
  revision: ProtocolRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
}

/** Everything a handler may read about the request it answers, beside its params. */
export interface MethodCall {
  readonly core: ServerCore;
  readonly request: JsonRpcRequest;
  readonly link: RequestLink;
  readonly facts: RequestFacts;
}

/** A method's result, before the era's additions (2026: `resultType`, `_meta` server info). */
export type MethodResult = Record<string, unknown>;

/** Answers one method: resolves with its result, or rejects with a `RequestFault`. */
export type MethodHandler = (params: Params, call: MethodCall) => MethodResult | Promise<MethodResult>;

/** Methods by name; a method missing from a table is answered -32601. */
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/** The handler of `method` in `table`, or undefined (own keys only: `constructor` is no method). */
export function handlerOf(table: MethodTable, method: string): MethodHandler | undefined {
  return Object.hasOwn(table, method) ? table[method] : undefined;
}

/** `value` when it is a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
