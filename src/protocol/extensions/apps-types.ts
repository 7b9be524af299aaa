/**
 * The wire shapes of MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, spec 2026-01-26) that the
 * MCP side carries — a tool's `_meta.ui`, a `ui://` resource's `_meta.ui`, the client's declared
 * setting — and the pure readers every room uses to decide who may see and call a tool. The
 * `ui/*` bridge between a host and a view lives with the host (`src/apps/`).
 */
import type { Tool } from '../types.js';

/** The MIME type of an MCP App's HTML resource (a host renders only this profile). */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** The URI scheme of an app's resources. */
export const UI_SCHEME = 'ui:';

/** Who may call a tool: the model (the agent's tool list) and/or the app of the tool's own server. */
export type UiToolVisibility = 'model' | 'app';

/** A tool's `_meta.ui`. */
export interface UiToolMeta {
  /** The `ui://` resource the host renders for this tool's calls. */
  resourceUri?: string;
  /** Default `['model', 'app']`. */
  visibility?: UiToolVisibility[];
  [key: string]: unknown;
}

/** The domains a view may reach; a host builds its CSP from these only, never more. */
export interface UiCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** The browser permissions a view asks for (Permission Policy features). */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A `ui://` resource content's `_meta.ui`. */
export interface UiResourceMeta {
  csp?: UiCsp;
  permissions?: UiPermissions;
  /** A dedicated sandbox origin (host-specific format). */
  domain?: string;
  /** The view asks for (true) or against (false) a visible border. */
  prefersBorder?: boolean;
  [key: string]: unknown;
}

/** What a client declares under `capabilities.extensions[EXTENSION_IDS.ui]`. */
export interface UiClientCapability {
  /** MUST include {@link UI_MIME_TYPE} for MCP Apps support. */
  mimeTypes?: string[];
  [key: string]: unknown;
}

/** The deprecated flat key some servers still write instead of `_meta.ui.resourceUri`. */
export const LEGACY_UI_RESOURCE_URI_KEY = 'ui/resourceUri';

const DEFAULT_VISIBILITY: readonly UiToolVisibility[] = ['model', 'app'];

/** A tool's UI settings from either spelling (`_meta.ui`, or the flat `_meta["ui/resourceUri"]`), or `undefined`. */
export function toolUiMeta(tool: Pick<Tool, '_meta'>): UiToolMeta | undefined {
  const meta = tool._meta;
  if (!meta) return undefined;
  const nested = meta.ui;
  const ui: UiToolMeta | undefined =
    nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? { ...(nested as UiToolMeta) } : undefined;
  const flat = meta[LEGACY_UI_RESOURCE_URI_KEY];
  if (typeof flat === 'string' && ui?.resourceUri === undefined) return { ...ui, resourceUri: flat };
  return ui;
}

/** Who may call the tool (the default when it says nothing, or says it malformed). */
export function toolVisibility(tool: Pick<Tool, '_meta'>): readonly UiToolVisibility[] {
  const visibility = toolUiMeta(tool)?.visibility;
  if (!Array.isArray(visibility)) return DEFAULT_VISIBILITY;
  return visibility.filter((v): v is UiToolVisibility => v === 'model' || v === 'app');
}

/** Whether the tool may be in the model's tool list (its visibility includes `model`). */
export function isModelVisible(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibility(tool).includes('model');
}

/** Whether an app of the tool's own server may call it (its visibility includes `app`). */
export function isAppCallable(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibility(tool).includes('app');
}

/** Whether a declared ui setting accepts MCP App HTML. */
export function acceptsAppHtml(settings: UiClientCapability | undefined): boolean {
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(UI_MIME_TYPE);
}
