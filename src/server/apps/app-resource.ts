/**
 * `McpServer.registerAppResource`: the HTML of an MCP App view (SEP-1865) as a `ui://` resource
 * of MIME type `text/html;profile=mcp-app`, its content's `_meta.ui` carrying what the host
 * needs to sandbox it (CSP domains, permissions, a dedicated origin, the border preference).
 */
import { McpError } from '../../protocol/errors.js';
import {
  UI_MIME_TYPE,
  UI_SCHEME,
  type UiCsp,
  type UiPermissions,
  type UiResourceMeta,
} from '../../protocol/extensions/apps-types.js';
import type { ResourceDefinition } from '../resource-set.js';

/** An app's view, for `McpServer.registerAppResource`. */
export interface AppResourceDefinition {
  uri: `ui://${string}`;
  name: string;
  title?: string;
  description?: string;
  /** The view's HTML document, or a function that makes it at each read. */
  html: string | (() => string | Promise<string>);
  /** The origins the view may reach; the host allows these only (none when absent). */
  csp?: UiCsp;
  /** The browser permissions the view asks for. */
  permissions?: UiPermissions;
  /** A dedicated sandbox origin (its format is the host's). */
  domain?: string;
  /** Whether the view asks for a visible border. */
  prefersBorder?: boolean;
  /**
   * Whether it is in `resources/list` (default true). `false`: left out of the list (the spec
   * allows UI-only resources there) yet readable by its URI, which the tool's `_meta.ui` names.
   */
  listed?: boolean;
}

const KEYS = new Set([
  'uri',
  'name',
  'title',
  'description',
  'html',
  'csp',
  'permissions',
  'domain',
  'prefersBorder',
  'listed',
]);

/**
 * The resource definition of `definition`. Throws `INVALID_ARGUMENT` for an unknown key, a URI
 * that is not `ui://…`, a missing name or an `html` that is neither a string nor a function.
 * A function that throws, or returns no string, fails the read (-32603, logged).
 */
export function appResourceDefinition(definition: AppResourceDefinition): ResourceDefinition {
  if (definition === null || typeof definition !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'registerAppResource needs a { uri, name, html } object');
  for (const key of Object.keys(definition))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown registerAppResource key "${key}"`);
  const { uri, name, title, description, html, csp, permissions, domain, prefersBorder, listed } = definition;
  if (typeof uri !== 'string' || !uri.startsWith(`${UI_SCHEME}//`))
    throw new McpError('INVALID_ARGUMENT', `app resource ${JSON.stringify(uri)} must have a ui:// URI`);
  if (typeof name !== 'string' || name === '')
    throw new McpError('INVALID_ARGUMENT', `app resource "${uri}" needs a "name"`);
  if (typeof html !== 'string' && typeof html !== 'function')
    throw new McpError('INVALID_ARGUMENT', `app resource "${uri}": html must be a string or a function`);
  const ui: UiResourceMeta = {};
  if (csp !== undefined) ui.csp = csp;
  if (permissions !== undefined) ui.permissions = permissions;
  if (domain !== undefined) ui.domain = domain;
  if (prefersBorder !== undefined) ui.prefersBorder = prefersBorder;
  const resource: ResourceDefinition = {
    uri,
    name,
    mimeType: UI_MIME_TYPE,
    read: async (readUri) => {
      const text = typeof html === 'string' ? html : await html();
      if (typeof text !== 'string') throw new Error(`app resource "${uri}": html() returned no string`);
      return [{ uri: readUri, mimeType: UI_MIME_TYPE, text, ...(Object.keys(ui).length > 0 ? { _meta: { ui } } : {}) }];
    },
  };
  if (title !== undefined) resource.title = title;
  if (description !== undefined) resource.description = description;
  if (listed === false) resource.listed = false;
  return resource;
}
