/**
 * What a host tells its views in `ui/initialize`'s answer: the host context (where the view is
 * shown; a part of it again in `host-context-changed`) and the host capabilities (what the host
 * will do when asked; a capability is declared only when the host has a hook for it).
 */
import type { UiCsp, UiPermissions } from '../protocol/extensions/apps-types.js';
import type { Tool } from '../protocol/types.js';
import type { UiDisplayMode, UiHostContext } from './bridge-types.js';

/** The hooks whose presence decides the capabilities. */
export interface CapabilityHooks {
  onOpenLink?: unknown;
  onMessage?: unknown;
  onModelContext?: unknown;
}

const CONTENT_MODALITIES = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {}, structuredContent: {} };

/** The `hostCapabilities` of a view's `ui/initialize` answer. */
export function hostCapabilities(
  hooks: CapabilityHooks,
  sandbox: { csp: UiCsp | undefined; permissions: UiPermissions | undefined },
): Record<string, unknown> {
  return {
    ...(hooks.onOpenLink ? { openLinks: {} } : {}),
    serverTools: {},
    serverResources: {},
    logging: {},
    sandbox: {
      ...(sandbox.csp ? { csp: sandbox.csp } : {}),
      ...(sandbox.permissions ? { permissions: sandbox.permissions } : {}),
    },
    ...(hooks.onModelContext ? { updateModelContext: CONTENT_MODALITIES } : {}),
    ...(hooks.onMessage ? { message: { text: {}, image: {}, resource: {}, resourceLink: {} } } : {}),
  };
}

/** The defaults under the caller's context: inline, web, and the runtime's locale and time zone when it has them. */
export function defaultHostContext(): UiHostContext {
  const context: UiHostContext = { displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' };
  try {
    const resolved = new Intl.DateTimeFormat().resolvedOptions();
    context.locale = resolved.locale;
    context.timeZone = resolved.timeZone;
  } catch {
    // A runtime without Intl: the view goes without.
  }
  return context;
}

/** `base` with `patch` over it (one level: a patched key replaces the whole value). */
export function mergeHostContext(base: UiHostContext, patch: Partial<UiHostContext>): UiHostContext {
  const out: UiHostContext = { ...base };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) out[key] = value;
  return out;
}

/** The context one view starts with: the host's, plus the tool it shows (`toolInfo`). */
export function viewHostContext(context: UiHostContext, tool: Tool, callId: string): UiHostContext {
  return { ...context, toolInfo: { id: callId, tool } };
}

/** Whether `mode` is one the context offers. */
export function offersMode(context: UiHostContext, mode: unknown): mode is UiDisplayMode {
  const offered = context.availableDisplayModes ?? [context.displayMode ?? 'inline'];
  return typeof mode === 'string' && (offered as string[]).includes(mode);
}
