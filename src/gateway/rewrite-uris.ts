/**
 * The places an upstream's answers name its resources, rewritten to the gateway's URIs
 * (`resource-uris.ts`) so that what a downstream client sees it can read through the gateway:
 * resource links and embedded resources in tool results and prompt messages, the contents of a
 * read, and a tool's MCP Apps view (`_meta.ui.resourceUri`, and the flat `_meta["ui/resourceUri"]`).
 * Each function returns a new value and leaves its argument as it was.
 */
import type { ContentBlock, ResourceContents, Tool } from '../protocol/types.js';
import { gatewayUri } from './resource-uris.js';

/** `blocks` with every resource link's and embedded resource's URI rewritten. */
export function rewriteBlocks(server: string, blocks: readonly ContentBlock[]): ContentBlock[] {
  return blocks.map((block) => {
    if (block?.type === 'resource_link' && typeof block.uri === 'string')
      return { ...block, uri: gatewayUri(server, block.uri) };
    if (block?.type === 'resource' && typeof block.resource?.uri === 'string')
      return { ...block, resource: rewriteContents(server, block.resource) };
    return block;
  });
}

/** One content of a read, its URI rewritten. */
export function rewriteContents(server: string, contents: ResourceContents): ResourceContents {
  return typeof contents?.uri === 'string' ? { ...contents, uri: gatewayUri(server, contents.uri) } : contents;
}

/** A tool's `_meta` with its view's URI rewritten (both spellings); other keys as they were. */
export function rewriteToolMeta(server: string, meta: Tool['_meta']): Tool['_meta'] {
  if (!meta || typeof meta !== 'object') return meta;
  let out: Record<string, unknown> | undefined;
  const ui = meta.ui as { resourceUri?: unknown } | undefined;
  if (ui && typeof ui === 'object' && typeof ui.resourceUri === 'string') {
    out = { ...meta, ui: { ...ui, resourceUri: gatewayUri(server, ui.resourceUri) } };
  }
  const flat = meta['ui/resourceUri'];
  if (typeof flat === 'string') (out ??= { ...meta })['ui/resourceUri'] = gatewayUri(server, flat);
  return out ?? meta;
}
