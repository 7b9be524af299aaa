/**
 * Which client capability a server→client input request needs, read from what the request asks
 * (an elicitation's `mode`, a sampling request's `tools`), so the kit refuses locally what the
 * client never said it can take instead of sending it (both eras: a legacy request, a 2026
 * `input_required` round).
 */
import type { ClientCapabilities } from '../../protocol/types.js';

/**
 * The capability `capabilities` lacks for `method` with `params`, as a dotted path
 * (`elicitation.url`), or undefined when the client declared what the request needs:
 * - `elicitation/create`: `elicitation`; URL mode needs `elicitation.url`; form mode (the
 *   default when `mode` is absent) needs `elicitation.form`, except that an `elicitation` naming
 *   neither mode means form only (2025-11-25 client/elicitation: "an empty capabilities object is
 *   equivalent to declaring support for form mode only"; servers MUST NOT send a mode the client
 *   did not declare);
 * - `sampling/createMessage`: `sampling`; with `tools` or `toolChoice`, `sampling.tools`
 *   (2025-11-25 client/sampling: servers MUST NOT send tool-enabled sampling requests without it);
 * - `roots/list`: `roots`.
 */
export function missingInputCapability(
  method: string,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): string | undefined {
  switch (method) {
    case 'elicitation/create': {
      const declared = objectOrUndefined(capabilities.elicitation);
      if (!declared) return 'elicitation';
      const url = declared.url !== undefined;
      const form = declared.form !== undefined || !url;
      if (params.mode === 'url') return url ? undefined : 'elicitation.url';
      if (params.mode === undefined || params.mode === 'form') return form ? undefined : 'elicitation.form';
      return undefined;
    }
    case 'sampling/createMessage': {
      const declared = objectOrUndefined(capabilities.sampling);
      if (!declared) return 'sampling';
      const usesTools = params.tools !== undefined || params.toolChoice !== undefined;
      return usesTools && declared.tools === undefined ? 'sampling.tools' : undefined;
    }
    case 'roots/list':
      return capabilities.roots === undefined ? 'roots' : undefined;
    default:
      return undefined;
  }
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  // A capability is declared by being present; `true` or another non-object still counts as
  // present (what the client meant), with no sub-capabilities.
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
