/**
 * The extensions one server offers (SEP-2133), kept as descriptors: the advertisement in each
 * era's capabilities (`initialize` result, `server/discover`) is read from here when asked, and
 * the router looks an extension's methods up here after its era's own table. Tasks, skills and
 * any extension a user registers are all entries of this one list.
 */
import { RpcErrorCode } from '../../protocol/jsonrpc.js';
import { checkExtensionId, type ExtensionSettings } from '../../protocol/extensions/ids.js';
import { McpError } from '../../protocol/errors.js';
import type { Disposer } from '../../protocol/transport.js';
import type { Era } from '../../protocol/revisions.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { RequestFault } from '../router/request-fault.js';

/**
 * A handler of the router's method tables (`router/method-table.ts`: `(params, call) => result`),
 * typed loosely here because `ServerCore` holds this list and the tables' types name the core:
 * the router, which made the call, is the one that runs it.
 */
export type ExtensionHandler = (params: Record<string, unknown>, call: never) => unknown;

/** One extension as the kit serves it. */
export interface ServerExtension {
  /** `{vendor-prefix}/{name}`. */
  readonly id: string;
  /** What to advertise in `era` now; `undefined`: not advertised (its methods still answer). */
  settings(era: Era): ExtensionSettings | undefined;
  /** The methods it adds, answered in its eras after the era's own table. */
  readonly methods?: Readonly<Record<string, ExtensionHandler>>;
  /** The eras it exists in (default both). */
  readonly eras?: readonly Era[];
  /** Its methods answer -32021 unless the request's client declared the extension. */
  readonly clientMustDeclare?: boolean;
}

/** True when the client capabilities name extension `id` (any value: what a client sent is its declaration). */
export function clientDeclares(capabilities: ClientCapabilities, id: string): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[id] !== undefined;
}

/** The -32021 fault of `what` (a method, a tool) asked by a client that did not declare extension `id`. */
export function extensionRequired(id: string, what: string): RequestFault {
  return new RequestFault(
    RpcErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability extensions["${id}"]`,
    { requiredCapabilities: { extensions: { [id]: {} } } },
  );
}

/** The registered extensions, in registration order; one entry per id. */
export class ExtensionList {
  private readonly entries = new Map<string, ServerExtension>();

  /** Adds `extension`; `INVALID_ARGUMENT` for a malformed or already registered id. The disposer removes it. */
  add(extension: ServerExtension): Disposer {
    checkExtensionId(extension.id);
    if (this.entries.has(extension.id))
      throw new McpError('INVALID_ARGUMENT', `extension "${extension.id}" is already registered`);
    this.entries.set(extension.id, extension);
    return () => {
      if (this.entries.get(extension.id) === extension) this.entries.delete(extension.id);
    };
  }

  /** The `extensions` capability object of `era` now, or `undefined` when nothing is advertised. */
  advertised(era: Era): Record<string, ExtensionSettings> | undefined {
    let out: Record<string, ExtensionSettings> | undefined;
    for (const extension of this.entries.values()) {
      if (extension.eras && !extension.eras.includes(era)) continue;
      const settings = extension.settings(era);
      if (settings !== undefined) (out ??= {})[extension.id] = settings;
    }
    return out;
  }

  /**
   * The extension of `era` that answers `method`, and its handler; the caller refuses the request
   * with {@link extensionRequired} when the extension wants the client's declaration and lacks it.
   */
  route(method: string, era: Era): { extension: ServerExtension; handler: ExtensionHandler } | undefined {
    for (const extension of this.entries.values()) {
      if (extension.eras && !extension.eras.includes(era)) continue;
      const methods = extension.methods;
      if (methods && Object.hasOwn(methods, method)) return { extension, handler: methods[method]! };
    }
    return undefined;
  }
}
