/**
 * Extension identifiers and the one reader of a capability object's `extensions` map (SEP-2133).
 * An id is `{vendor-prefix}/{name}`; an extension is off unless both sides name it: a client in
 * `capabilities.extensions` (the `initialize` params in the legacy era, the per-request client
 * capabilities in `_meta` on 2026-07-28), a server in its `initialize` result or `server/discover`.
 * Every room spells an extension id through `EXTENSION_IDS`, nowhere else.
 */
import { McpError } from '../errors.js';

/** The extensions mcpwire implements, by their wire ids. */
export const EXTENSION_IDS = {
  /** Tasks (SEP-2663), 2026-07-28 only. */
  tasks: 'io.modelcontextprotocol/tasks',
  /** Agent skills published by a server (SEP-2640): `skills/list`, `skills/get`, `resources/directory/read`. */
  skills: 'io.modelcontextprotocol/skills',
  /** MCP Apps (SEP-1865): tools with `ui://` views a host renders in a sandboxed frame. */
  ui: 'io.modelcontextprotocol/ui',
} as const;

/** One extension's settings as a capability object carries them (`{}`: supported, nothing to set). */
export type ExtensionSettings = Readonly<Record<string, unknown>>;

/** An `extensions` map: id → settings. */
export type ExtensionMap = Readonly<Record<string, ExtensionSettings>>;

const ID = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Whether `id` has the `{vendor-prefix}/{name}` shape SEP-2133 requires. */
export function isExtensionId(id: string): boolean {
  return ID.test(id);
}

/** Throws `INVALID_ARGUMENT` naming `id` unless it is a well-formed extension id. */
export function checkExtensionId(id: string): void {
  if (!isExtensionId(id)) {
    throw new McpError('INVALID_ARGUMENT', `"${id}" is not an extension id: expected {vendor-prefix}/{name}`);
  }
}

/**
 * The settings a capability object gives extension `id`, or `undefined` when it does not name it.
 * Only an object value counts (`true` or a string is not a declaration on the wire).
 */
export function extensionSettings(
  capabilities: { extensions?: Record<string, unknown> } | undefined,
  id: string,
): ExtensionSettings | undefined {
  const value = capabilities?.extensions?.[id];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as ExtensionSettings)
    : undefined;
}

/** Every well-formed extension a capability object names, with its settings. */
export function extensionsOf(capabilities: { extensions?: Record<string, unknown> } | undefined): ExtensionMap {
  const out: Record<string, ExtensionSettings> = {};
  for (const id of Object.keys(capabilities?.extensions ?? {})) {
    const settings = extensionSettings(capabilities, id);
    if (settings && isExtensionId(id)) out[id] = settings;
  }
  return out;
}
