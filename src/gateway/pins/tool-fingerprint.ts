/**
 * What a pin is about: the part of a tool's definition that the model reads and that decides what
 * a call does, and a stable hash of it. A server that rewrites a tool after it was approved (a
 * "rug pull": new instructions hidden in the description, a new argument, a destructive hint
 * dropped) changes this hash; a server that only reorders keys or sends `undefined` does not.
 */
import { stableJson } from '../../manager/config/fingerprint.js';
import { sha256Hex } from '../../manager/hashing.js';
import type { Tool } from '../../protocol/types.js';

/**
 * The fields of a tool a pin covers. Not covered, on purpose:
 * - `name`: it is the pin's key (the gateway name `server__tool`), not part of the definition;
 * - `_meta`: free-form, per-response data servers and SDKs vary at will (trace ids, timestamps,
 *   vendor hints), which neither the model reads as instructions nor a call depends on; pinning it
 *   would withhold tools for noise. What of it matters to a host (e.g. an app's UI resource) is
 *   that host's to check;
 * - `icons` and `execution`: how a host shows or schedules a call, not what it does.
 */
export const PINNED_FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** A tool reduced to what is pinned: `name` and the {@link PINNED_FIELDS} that are present. */
export function pinnedView(tool: Tool): Tool {
  const view: Tool = { name: tool.name, inputSchema: tool.inputSchema };
  for (const field of PINNED_FIELDS) if (tool[field] !== undefined) Object.assign(view, { [field]: tool[field] });
  return view;
}

/**
 * The SHA-256 (64 hex digits) of the canonical JSON (keys sorted at every depth, `undefined`
 * members left out) of the tool's {@link PINNED_FIELDS}. Equal for definitions that differ only
 * in key order, in fields set to `undefined` versus absent, or outside those fields; different when
 * any of them differs. Pure; never throws for a JSON-shaped tool.
 */
export function toolFingerprint(tool: Tool): string {
  const identity: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS) identity[field] = tool[field];
  return sha256Hex(stableJson(identity));
}

/** The {@link PINNED_FIELDS} whose canonical JSON differs between `before` and `after` (in that order). */
export function changedFields(before: Tool, after: Tool): string[] {
  return PINNED_FIELDS.filter((field) => stableJson(before[field]) !== stableJson(after[field]));
}
