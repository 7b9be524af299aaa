/**
 * The client's side of the extension contract (SEP-2133): what `connect({ extensions })` declares
 * and the check that an extension's method goes only to a server that advertised it. The
 * declaration goes out in every era: in `initialize`'s capabilities (legacy) and in every
 * request's client capabilities (2026-07-28).
 */
import { McpError } from '../protocol/errors.js';
import { checkExtensionId, extensionSettings, type ExtensionSettings } from '../protocol/extensions/ids.js';
import type { ClientCapabilities, ServerCapabilities } from '../protocol/types.js';

/** What a caller may give per extension: its settings, or `true` for `{}` (supported, nothing to set). */
export type ExtensionDeclaration = ExtensionSettings | true;

/**
 * Throws `INVALID_ARGUMENT` naming the first malformed id or a value that is neither `true` nor
 * a plain object (a misspelt declaration would otherwise be sent and ignored by every server).
 */
export function checkExtensionDeclarations(given: Readonly<Record<string, ExtensionDeclaration>> | undefined): void {
  if (given === undefined) return;
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new McpError('INVALID_ARGUMENT', 'McpClient.connect options.extensions must be an object of id → settings');
  for (const [id, value] of Object.entries(given)) {
    checkExtensionId(id);
    if (value !== true && (value === null || typeof value !== 'object' || Array.isArray(value)))
      throw new McpError('INVALID_ARGUMENT', `options.extensions["${id}"] must be true or a settings object`);
  }
}

/** `capabilities` with the declared extensions under `extensions` (unchanged when none are given). */
export function withExtensions(
  capabilities: ClientCapabilities,
  given: Readonly<Record<string, ExtensionDeclaration>> | undefined,
): ClientCapabilities {
  const ids = Object.keys(given ?? {});
  if (ids.length === 0) return capabilities;
  const extensions: Record<string, ExtensionSettings> = {};
  for (const id of ids) {
    const value = given![id];
    extensions[id] = value === true ? {} : { ...value };
  }
  return { ...capabilities, extensions };
}

/** Throws `CAPABILITY_MISSING` (nothing sent) unless the server advertised extension `id`. */
export function assertServerExtension(
  capabilities: ServerCapabilities,
  id: string,
  server: string,
  method: string,
): ExtensionSettings {
  const settings = extensionSettings(capabilities, id);
  if (!settings)
    throw new McpError('CAPABILITY_MISSING', `not sent: the server did not advertise the extension "${id}"`, {
      server,
      method,
    });
  return settings;
}
