/**
 * The legacy era (≤ 2025-11-25): `initialize` negotiates a revision and makes the connection's
 * session; then the session's methods: `ping`, `logging/setLevel`, `tools/list`, `tools/call`,
 * `resources/subscribe` / `unsubscribe`, and the shared ones. Results go out as they are.
 */
import {
  hasFeature,
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  type ProtocolRevision,
} from '../../protocol/revisions.js';
import type { Implementation, Tool } from '../../protocol/types.js';
import { visibleTools } from '../visibility.js';
import { callToolMethod } from '../tools/tools-call.js';
import { capabilitiesOf } from './capabilities.js';
import {
  isObject,
  type MethodCall,
  type MethodHandler,
  type MethodResult,
  type MethodTable,
  type Params,
} from './method-table.js';
import { RequestFault } from './request-fault.js';
import { isLoggingLevel, type LegacySession } from './request-link.js';
import { SHARED_METHODS } from './shared-methods.js';

/**
 * `initialize`: echoes a revision we speak, else offers our newest legacy one (the client may
 * then disconnect), and sets the link's session. -32602 where no session may be made (the
 * connection already has one).
 */
export function initialize(params: Params, call: Pick<MethodCall, 'core' | 'link'>): MethodResult {
  const { core, link } = call;
  if (!link.canInitialize)
    throw RequestFault.invalidParams('initialize is not accepted here: this connection is already initialized');
  const requested = params.protocolVersion;
  const revision: ProtocolRevision = (LEGACY_REVISIONS as readonly unknown[]).includes(requested)
    ? (requested as ProtocolRevision)
    : LATEST_LEGACY_REVISION;
  link.legacy = {
    revision,
    clientCapabilities: isObject(params.capabilities) ? params.capabilities : {},
    clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
    logLevel: 'info',
    subscriptions: new Set(),
  };
  const result: MethodResult = {
    protocolVersion: revision,
    capabilities: capabilitiesOf(core, 'legacy'),
    serverInfo: infoForRevision(core.info, revision),
  };
  if (core.instructions !== undefined) result.instructions = core.instructions;
  return result;
}

/** `serverInfo` without the fields added in 2025-11-25 (`description`, `websiteUrl`, `icons`) for an older revision. */
function infoForRevision(info: Implementation, revision: ProtocolRevision): Implementation {
  if (hasFeature(revision, 'icons')) return info;
  const { description: _d, websiteUrl: _w, icons: _i, ...older } = info;
  return older;
}

/** The session a legacy method runs in (the router runs this table only for a link that has one). */
function sessionOf(call: MethodCall): LegacySession {
  return call.link.legacy!;
}

/**
 * A tool as a legacy client knows it: no fields its revision cannot read, and no
 * `execution.taskSupport`, because the kit serves tasks only through the 2026 extension and
 * declares no `tasks` capability in a session: a 2025-11-25 client must then not use tasks
 * whatever a tool says (basic/utilities/tasks, tool-level negotiation), and each call is
 * answered directly.
 */
function toolForRevision(tool: Tool, revision: ProtocolRevision): Tool {
  const { execution: _tasksOnlyIn2026, ...copy } = tool;
  if (!hasFeature(revision, 'structuredOutput')) {
    delete copy.outputSchema;
    delete copy.title;
  }
  if (!hasFeature(revision, 'toolAnnotations')) delete copy.annotations;
  return copy;
}

/** `resources/subscribe` (`on`) or `unsubscribe`: the session hears `notifications/resources/updated` for the URI. */
function subscription(on: boolean): MethodHandler {
  return (params, call) => {
    const method = call.request.method;
    if (call.core.resources.size === 0) throw RequestFault.methodNotFound(method);
    if (typeof params.uri !== 'string') throw RequestFault.invalidParams(`${method} needs a "uri"`);
    if (on) sessionOf(call).subscriptions.add(params.uri);
    else sessionOf(call).subscriptions.delete(params.uri);
    return {};
  };
}

/** The methods of a legacy session. */
export const LEGACY_METHODS: MethodTable = {
  ...SHARED_METHODS,
  ping: () => ({}),
  'logging/setLevel': (params, call) => {
    if (!isLoggingLevel(params.level)) throw RequestFault.invalidParams('logging/setLevel needs a valid "level"');
    sessionOf(call).logLevel = params.level;
    return {};
  },
  'tools/list': (params, call) => {
    const visible = visibleTools(call.core, call.facts.clientCapabilities, call.link.auth);
    const page = call.core.tools.page(params.cursor, call.core.pageSize, visible);
    return { ...page, tools: page.tools.map((tool) => toolForRevision(tool, call.facts.revision)) };
  },
  'tools/call': async (params, call) => {
    const result = await callToolMethod(params, call);
    if (!hasFeature(call.facts.revision, 'structuredOutput')) delete result.structuredContent;
    return result;
  },
  'resources/subscribe': subscription(true),
  'resources/unsubscribe': subscription(false),
};
