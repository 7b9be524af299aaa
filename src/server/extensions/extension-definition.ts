/**
 * `McpServer.registerExtension` and the `extensions` option: a user's extension as the kit's one
 * descriptor ({@link ServerExtension}). Its methods run with the same request context as tools
 * (signal, progress, log, the client's declared extensions); a handler answers -32602 by
 * throwing `McpError('INVALID_ARGUMENT', …)`, and any other throw is logged and answered -32603.
 */
import { McpError } from '../../protocol/errors.js';
import type { ExtensionSettings } from '../../protocol/extensions/ids.js';
import type { Era } from '../../protocol/revisions.js';
import { requestContext } from '../router/handler-context.js';
import type { MethodHandler, MethodResult } from '../router/method-table.js';
import type { RequestContext } from '../server-types.js';
import type { ServerExtension } from './extension-list.js';

/** Answers one method of an extension: its result object. */
export type ExtensionMethod = (
  params: Record<string, unknown>,
  context: RequestContext,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** An extension a server offers, for {@link McpServer.registerExtension}. */
export interface ExtensionDefinition {
  /** `{vendor-prefix}/{name}`, e.g. `com.example/reports`. */
  id: string;
  /** What the server advertises for it (default `{}`: supported, nothing to set). */
  settings?: ExtensionSettings;
  /** The eras it is advertised and answered in (default both). */
  eras?: readonly Era[];
  /** Methods it adds; an era's own methods (`tools/call`, …) cannot be replaced. */
  methods?: Readonly<Record<string, ExtensionMethod>>;
  /** Its methods answer -32021 unless the client declared the extension (default false). */
  clientMustDeclare?: boolean;
}

const DEFINITION_KEYS = new Set(['id', 'settings', 'eras', 'methods', 'clientMustDeclare']);

/** The descriptor of `definition`; `INVALID_ARGUMENT` naming what is wrong with it. */
export function extensionFromDefinition(definition: ExtensionDefinition): ServerExtension {
  if (definition === null || typeof definition !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'registerExtension needs an { id, settings?, methods? } object');
  for (const key of Object.keys(definition))
    if (!DEFINITION_KEYS.has(key))
      throw new McpError('INVALID_ARGUMENT', `unknown registerExtension key "${key}" (extension "${definition.id}")`);
  const { id, settings = {}, eras, methods = {}, clientMustDeclare = false } = definition;
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
    throw new McpError('INVALID_ARGUMENT', `extension "${id}": settings must be an object`);
  const table: Record<string, MethodHandler> = {};
  for (const [method, answer] of Object.entries(methods)) {
    if (typeof answer !== 'function')
      throw new McpError('INVALID_ARGUMENT', `extension "${id}": method "${method}" must be a function`);
    table[method] = async (params, call): Promise<MethodResult> => {
      const { context, finish } = requestContext(call, params);
      try {
        const result = await answer(params, context);
        if (result === null || typeof result !== 'object' || Array.isArray(result))
          throw new McpError('PROTOCOL', `extension "${id}" method "${method}" returned a non-object result`);
        return result;
      } finally {
        finish();
      }
    };
  }
  const advertised = { ...settings };
  return { id, settings: () => advertised, methods: table, ...(eras ? { eras } : {}), clientMustDeclare };
}
