/**
 * What a server's tools look like to the hosts that use them: the `tools` check (they list) and
 * the `schemas` check. A tool is a failure when its `inputSchema` is not an object schema with
 * `type: "object"` (every revision requires it; hosts reject the whole tool list over one) or two
 * tools share a name; a warning when its name is outside `[A-Za-z0-9_.-]{1,128}` (the spec's
 * advice; model providers reject others) or when a model provider's schema rules
 * (`llm/schema-profiles.ts`, the cleaning `toOpenAITools` and friends apply) would drop or rewrite
 * part of its schema, so the model sees less than the server describes.
 */
import { cleanSchema, type SchemaProfile } from '../../llm/schema-profiles.js';
import type { Tool } from '../../protocol/types.js';
import type { CheckOutcome } from './run-check.js';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const PROFILES: SchemaProfile[] = ['anthropic', 'openai', 'gemini'];
/** Edits every provider makes that lose nothing the model needs. */
const HARMLESS = new Set(['$schema', '$id', '$comment']);
/** How many problems one line names before it counts the rest. */
const SHOWN = 4;

function listed(items: string[]): string {
  return items.length <= SHOWN
    ? items.join('; ')
    : `${items.slice(0, SHOWN).join('; ')}; and ${items.length - SHOWN} more`;
}

/** The `schemas` check of `tools`. */
export function checkToolSchemas(tools: readonly Tool[]): CheckOutcome {
  const failures: string[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) failures.push(`two tools are named "${tool.name}"`);
    seen.add(tool.name);
    if (!NAME.test(tool.name)) warnings.push(`tool "${tool.name}": the name is outside [A-Za-z0-9_.-]{1,128}`);
    const schema = tool.inputSchema as unknown;
    if (
      typeof schema !== 'object' ||
      schema === null ||
      Array.isArray(schema) ||
      (schema as { type?: unknown }).type !== 'object'
    ) {
      failures.push(`tool "${tool.name}": inputSchema is not an object schema with type "object"`);
      continue;
    }
    const lost = new Map<string, SchemaProfile[]>();
    for (const profile of PROFILES) {
      for (const change of cleanSchema(schema, profile).changes) {
        if (HARMLESS.has(change.keyword) && change.action === 'removed') continue;
        const what = `${change.keyword} ${change.action} at ${change.path || '/'}`;
        lost.set(what, [...(lost.get(what) ?? []), profile]);
      }
    }
    for (const [what, profiles] of lost) warnings.push(`tool "${tool.name}": ${what} for ${profiles.join(', ')}`);
  }
  if (failures.length)
    return {
      verdict: 'fail',
      kind: 'tool',
      detail: listed([...failures, ...warnings]),
      fix: 'fix the tool definitions in the server: hosts refuse a tool list with these',
    };
  if (warnings.length)
    return {
      verdict: 'warn',
      detail: listed(warnings),
      fix: 'simplify these schemas if models misuse the tools (mcpwire tools --json shows them whole)',
    };
  return { verdict: 'ok', detail: `${tools.length} tool schema(s) fit every model provider's rules` };
}
