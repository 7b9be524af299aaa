/**
 * Capability gating: which server capability each client method needs, and the check that
 * fails locally (nothing sent) when the server did not advertise it.
 */
import { McpError } from '../protocol/errors.js';
import { hasFeature, type Era } from '../protocol/revisions.js';
import { EXTENSION_IDS } from '../protocol/extensions/ids.js';
import type { ServerCapabilities } from '../protocol/types.js';

/** The capability a method needs, as a path into `ServerCapabilities`. */
const REQUIRED: Record<string, readonly string[]> = {
  'tools/list': ['tools'],
  'tools/call': ['tools'],
  'resources/list': ['resources'],
  'resources/templates/list': ['resources'],
  'resources/read': ['resources'],
  'resources/subscribe': ['resources', 'subscribe'],
  'resources/unsubscribe': ['resources', 'subscribe'],
  'prompts/list': ['prompts'],
  'prompts/get': ['prompts'],
  'completion/complete': ['completions'],
  'logging/setLevel': ['logging'],
  // Extension methods need the extension advertised (SEP-2133); skills' directory read needs its setting too.
  'skills/list': ['extensions', EXTENSION_IDS.skills],
  'skills/get': ['extensions', EXTENSION_IDS.skills],
  'resources/directory/read': ['extensions', EXTENSION_IDS.skills, 'directoryRead'],
  'tasks/get': ['extensions', EXTENSION_IDS.tasks],
  'tasks/update': ['extensions', EXTENSION_IDS.tasks],
  'tasks/cancel': ['extensions', EXTENSION_IDS.tasks],
};

/** The capability path `method` needs in `revision`, or undefined when it needs none. */
export function requiredCapability(method: string, revision: string): readonly string[] | undefined {
  // 2024-11-05 had no `completions` capability: servers offered completion without declaring it.
  if (method === 'completion/complete' && !hasFeature(revision, 'completionsCapability')) return undefined;
  return REQUIRED[method];
}

/** True when `capabilities` contains `path` (any value but false/undefined/null). */
export function hasCapability(capabilities: ServerCapabilities, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

/** Throws `CAPABILITY_MISSING` unless the server advertised what `method` needs. */
export function assertCapability(
  method: string,
  capabilities: ServerCapabilities,
  revision: string,
  server: string,
): void {
  const path = requiredCapability(method, revision);
  if (path && !hasCapability(capabilities, path)) {
    throw new McpError(
      'CAPABILITY_MISSING',
      `not sent: the server did not advertise the "${path.join('.')}" capability`,
      { server, method },
    );
  }
}

/** Throws `CAPABILITY_MISSING` for a method that does not exist in the negotiated era. */
export function assertEra(method: string, era: Era, allowed: Era, server: string): void {
  if (era !== allowed) {
    throw new McpError('CAPABILITY_MISSING', `not sent: the ${era} era has no ${method}`, { server, method });
  }
}
