/** The capabilities a server offers in each era, read from what is registered when asked. */
import type { Era } from '../../protocol/revisions.js';
import type { ServerCapabilities } from '../../protocol/types.js';
import { skillsNeedResources } from '../skills/skills-methods.js';
import type { ServerCore } from './server-core.js';

/**
 * What the server offers now. List changes and resource updates reach a legacy client unasked
 * (`resources/subscribe` for updates) and a 2026 client on its `subscriptions/listen` streams;
 * `logging/setLevel` exists only in the legacy era; the extensions are what the server's
 * extension list advertises for the era (tasks only in 2026).
 */
export function capabilitiesOf(core: ServerCore, era: Era): ServerCapabilities {
  const legacy = era === 'legacy';
  const capabilities: ServerCapabilities = { tools: { listChanged: true } };
  if (core.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
  if (core.prompts.size > 0) capabilities.prompts = { listChanged: true };
  if (core.resources.size > 0 || core.prompts.size > 0) capabilities.completions = {};
  if (legacy) capabilities.logging = {};
  skillsNeedResources(core, capabilities);
  const extensions = core.extensions.advertised(era);
  if (extensions) capabilities.extensions = extensions;
  return capabilities;
}
