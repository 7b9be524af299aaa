/**
 * Which client capability a server's request needs — legacy server → client requests, and the
 * 2026-07-28 input requests of an `InputRequiredResult` (the same methods and params).
 *
 * Spec: `2025-11-25/basic/lifecycle.mdx` "Capability Negotiation" (use only negotiated
 * capabilities); `2025-11-25/client/sampling.mdx` "Capabilities" (`sampling`; `sampling.tools`
 * before sending `tools`/`toolChoice`); `client/roots.mdx` (`roots`); `client/elicitation.mdx`
 * (`elicitation`, where `{}` means form mode only, and "Servers MUST NOT send elicitation
 * requests with modes that are not supported by the client"); `basic/utilities/tasks.mdx`
 * (`tasks`, `tasks.list`, `tasks.cancel`, `tasks.requests.*` for task-augmented requests);
 * `2026-07-28/basic/patterns/mrtr.mdx` (the same rule for `inputRequests`).
 */
import { isObject } from './field-checks.js';

function has(capabilities: Record<string, unknown>, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (!isObject(node) || !isObject(node[key])) return false;
    node = node[key];
  }
  return true;
}

function missing(path: readonly string[]): string {
  return `"${path.join('.')}"`;
}

/**
 * The capability (dotted, quoted) the client would have had to declare for a server to send
 * `method` with `params`, or undefined when `capabilities` covers it (or nothing is needed).
 */
export function missingClientCapability(
  method: string,
  params: unknown,
  capabilities: Record<string, unknown>,
): string | undefined {
  const p = isObject(params) ? params : {};
  const need = (path: readonly string[]) => (has(capabilities, path) ? undefined : missing(path));
  switch (method) {
    case 'sampling/createMessage':
      return (
        need(['sampling']) ??
        (p.tools !== undefined || p.toolChoice !== undefined ? need(['sampling', 'tools']) : undefined) ??
        (p.task !== undefined ? need(['tasks', 'requests', 'sampling', 'createMessage']) : undefined)
      );
    case 'roots/list':
      return need(['roots']);
    case 'elicitation/create': {
      const declared = need(['elicitation']);
      if (declared) return declared;
      const elicitation = capabilities.elicitation as Record<string, unknown>;
      const mode = p.mode === 'url' ? 'url' : 'form';
      // An empty elicitation object declares form mode only.
      const formByDefault = mode === 'form' && !isObject(elicitation.form) && !isObject(elicitation.url);
      const modeMissing = formByDefault ? undefined : need(['elicitation', mode]);
      return modeMissing ?? (p.task !== undefined ? need(['tasks', 'requests', 'elicitation', 'create']) : undefined);
    }
    case 'tasks/list':
      return need(['tasks', 'list']);
    case 'tasks/cancel':
      return need(['tasks', 'cancel']);
    case 'tasks/get':
    case 'tasks/result':
      return need(['tasks']);
    default:
      return undefined;
  }
}
