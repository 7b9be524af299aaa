/**
 * The 2026-07-28 era: no handshake, every request carries its revision and the client's
 * capabilities in `params._meta` (`modern-envelope.ts`). Methods: `server/discover`,
 * `tools/list`, `tools/call`, `subscriptions/listen` (`listen-stream.ts`) and the shared ones
 * (the extensions' methods, tasks included, come from the server's extension list); lists and
 * reads that any client may cache carry `ttlMs` and `cacheScope`. The router adds `resultType`
 * and the server's info in `_meta` to every result.
 */
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../../protocol/revisions.js';
import { visibleTools } from '../visibility.js';
import { callToolMethod } from '../tools/tools-call.js';
import { capabilitiesOf } from './capabilities.js';
import { serveListen } from './listen-stream.js';
import type { MethodCall, MethodHandler, MethodResult, MethodTable } from './method-table.js';
import { SHARED_METHODS } from './shared-methods.js';

/** The same for every client for now: a result any cache may keep (and must re-ask at once). */
const PUBLIC_NOW = { ttlMs: 0, cacheScope: 'public' } as const;

/** Shared methods whose results every client may cache. */
const CACHEABLE = ['resources/list', 'resources/templates/list', 'resources/read', 'prompts/list'];

/** What a request sees when the server decides per request (`visibility`): only its own cache may keep it. */
const PRIVATE_NOW = { ttlMs: 0, cacheScope: 'private' } as const;

/** The cache marks of a list or read of `core`. */
function cacheMarks(core: MethodCall['core']): typeof PUBLIC_NOW | typeof PRIVATE_NOW {
  return core.visibility ? PRIVATE_NOW : PUBLIC_NOW;
}

function cached(handler: MethodHandler): MethodHandler {
  return async (params, call) => ({ ...(await handler(params, call)), ...cacheMarks(call.core) });
}

/** The methods of a 2026 request. */
export const MODERN_METHODS: MethodTable = {
  ...SHARED_METHODS,
  ...Object.fromEntries(CACHEABLE.map((method) => [method, cached(SHARED_METHODS[method]!)])),
  'server/discover': (_params, { core }) => {
    const result: MethodResult = {
      supportedVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
      capabilities: capabilitiesOf(core, 'modern'),
      serverInfo: core.info,
      ...PUBLIC_NOW,
    };
    if (core.instructions !== undefined) result.instructions = core.instructions;
    return result;
  },
  // What a client sees depends on its declared ui extension (app-only tools); that declaration is
  // part of the request, and `ttlMs: 0` keeps no cache from serving one client's list to another.
  'tools/list': (params, { core, facts, link }) => ({
    ...core.tools.page(params.cursor, core.pageSize, visibleTools(core, facts.clientCapabilities, link.auth)),
    ...cacheMarks(core),
  }),
  'tools/call': callToolMethod,
  // Cancelled: the transport sends nothing (this answer is dropped).
  'subscriptions/listen': async (params, { core, request, link }) =>
    (await serveListen(core, request.id, params.notifications, capabilitiesOf(core, 'modern'), link)) ?? {},
};
