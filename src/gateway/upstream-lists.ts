/**
 * What one upstream offers, read whole (every page) from its client: tools, prompts, resources
 * and resource templates, each only when the server advertises its capability. A list that
 * fails is reported in `errors` and read as empty; the others stand.
 */
import type { McpClient } from '../client/mcp-client.js';
import { McpError } from '../protocol/errors.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';

/** The lists of one upstream, as last read. */
export interface UpstreamLists {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplate[];
  /** Why a list could not be read, by list (`tools`, `prompts`, `resources`, `templates`). */
  errors: Partial<Record<ListKind, string>>;
}

export type ListKind = 'tools' | 'prompts' | 'resources' | 'templates';

/** The lists `kinds` of `client` (the others copied from `previous`), within `timeoutMs` each. */
export async function readLists(
  client: McpClient,
  kinds: readonly ListKind[],
  previous: UpstreamLists | undefined,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<UpstreamLists> {
  const lists: UpstreamLists = {
    tools: previous?.tools ?? [],
    prompts: previous?.prompts ?? [],
    resources: previous?.resources ?? [],
    templates: previous?.templates ?? [],
    errors: { ...previous?.errors },
  };
  const caps = client.capabilities;
  const call = { signal: options.signal, timeoutMs: options.timeoutMs, refresh: true };
  const read = async <K extends ListKind>(kind: K, offered: unknown, list: () => Promise<UpstreamLists[K]>) => {
    delete lists.errors[kind];
    if (!offered) {
      lists[kind] = [] as UpstreamLists[K];
      return;
    }
    try {
      lists[kind] = await list();
    } catch (error) {
      if (options.signal.aborted) throw error;
      lists[kind] = [] as UpstreamLists[K];
      // A server that offers resources but not templates answers -32601: nothing to report.
      if (!(kind === 'templates' && error instanceof McpError && error.rpcCode === -32601))
        lists.errors[kind] = error instanceof Error ? error.message : String(error);
    }
  };
  await Promise.all(
    kinds.map((kind) => {
      switch (kind) {
        case 'tools':
          return read('tools', caps.tools, () => client.listTools(call));
        case 'prompts':
          return read('prompts', caps.prompts, () => client.listPrompts(call));
        case 'resources':
          return read('resources', caps.resources, () => client.listResources(call));
        case 'templates':
          return read('templates', caps.resources, () => client.listResourceTemplates(call));
      }
    }),
  );
  return lists;
}
