/**
 * `x-mcp-header` (2026-07-28, `server/tools.mdx` and `basic/transports/streamable-http.mdx`):
 * a tool's input schema may mark primitive parameters whose values the client mirrors into
 * `Mcp-Param-<Name>` HTTP headers on `tools/call`. Clients on Streamable HTTP must check the
 * markings and leave a tool with invalid ones out of their tool list.
 */
import type { Tool } from '../protocol/types.js';
import { sampleValue } from '../protocol/value-sample.js';
import { encodeHeaderValue } from '../transport/http/header-values.js';

/** One marked parameter: its header name part and the `properties` path to its value. */
export interface ParamHeader {
  name: string;
  path: readonly string[];
}

/** The checked markings of one tool: the headers to send, or why the tool must be dropped. */
export type ParamHeaderPlan = { ok: true; headers: readonly ParamHeader[] } | { ok: false; reason: string };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are off the static `properties` chain. */
const OFF_CHAIN = [
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  '$defs',
  'definitions',
];

const NO_HEADERS: ParamHeaderPlan = Object.freeze({ ok: true, headers: Object.freeze([]) });

/**
 * Checks every `x-mcp-header` marking of `tool.inputSchema` against the spec's constraints
 * (non-empty token, case-insensitively unique, on a `string`/`integer`/`boolean` property
 * reached through `properties` keys only). Never throws.
 */
export function planParamHeaders(tool: Tool): ParamHeaderPlan {
  let plan = plans.get(tool);
  if (plan === undefined) plans.set(tool, (plan = computePlan(tool)));
  return plan;
}

/** Plans per tool object: a cached tool list is checked once, not on every call. */
const plans = new WeakMap<Tool, ParamHeaderPlan>();

function computePlan(tool: Tool): ParamHeaderPlan {
  const schema = tool.inputSchema as unknown;
  try {
    if (!schema || typeof schema !== 'object' || !JSON.stringify(schema).includes('"x-mcp-header"')) return NO_HEADERS;
    const headers: ParamHeader[] = [];
    const seen = new Set<string>();
    const problem = walk(schema as Record<string, unknown>, [], true, headers, seen);
    return problem === undefined ? { ok: true, headers } : { ok: false, reason: problem };
  } catch (error) {
    // Both walks recurse: a schema nested deeper than the stack allows cannot be checked.
    return {
      ok: false,
      reason: `its inputSchema could not be checked for x-mcp-header markings (${error instanceof Error ? error.message : 'not an Error'})`,
    };
  }
}

function walk(
  schema: Record<string, unknown>,
  path: string[],
  onChain: boolean,
  headers: ParamHeader[],
  seen: Set<string>,
): string | undefined {
  if ('x-mcp-header' in schema) {
    const where = path.length === 0 ? 'the schema root' : `"${path.join('.')}"`;
    if (!onChain || path.length === 0)
      return `x-mcp-header on ${where} is not a property reachable through "properties" alone`;
    const name = schema['x-mcp-header'];
    if (typeof name !== 'string' || name === '' || !TOKEN.test(name))
      return `x-mcp-header ${sampleValue(name)} on ${where} is not a valid header-name token`;
    if (seen.has(name.toLowerCase())) return `x-mcp-header ${sampleValue(name)} is used twice (case-insensitively)`;
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]).filter((t) => t !== 'null') : [schema.type];
    if (types.length === 0 || !types.every((t) => typeof t === 'string' && PRIMITIVE.has(t))) {
      return `x-mcp-header ${sampleValue(name)} on ${where} must mark a string, integer or boolean parameter (type ${sampleValue(schema.type)})`;
    }
    seen.add(name.toLowerCase());
    headers.push({ name, path: [...path] });
  }
  const properties = schema.properties;
  if (properties && typeof properties === 'object') {
    for (const [key, sub] of Object.entries(properties as Record<string, unknown>)) {
      if (sub && typeof sub === 'object') {
        const problem = walk(sub as Record<string, unknown>, [...path, key], onChain, headers, seen);
        if (problem) return problem;
      }
    }
  }
  for (const keyword of OFF_CHAIN) {
    const value = schema[keyword];
    const subs = Array.isArray(value)
      ? value
      : value && typeof value === 'object'
        ? keyword === 'patternProperties' ||
          keyword === '$defs' ||
          keyword === 'definitions' ||
          keyword === 'dependentSchemas'
          ? Object.values(value)
          : [value]
        : [];
    for (const sub of subs) {
      if (sub && typeof sub === 'object') {
        const problem = walk(sub as Record<string, unknown>, [...path, keyword], false, headers, seen);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/**
 * The `Mcp-Param-*` headers of one call: each marked value found at its path in `args`
 * (absent or `null` ⇒ no header), encoded per the spec's value rules. Values of other types
 * (objects, non-integral numbers) are left out; the server's validation has the last word.
 */
export function paramHeaders(
  plan: ParamHeaderPlan,
  args: Record<string, unknown> | undefined,
): Record<string, string> | undefined {
  if (!plan.ok || plan.headers.length === 0 || args === undefined) return undefined;
  let out: Record<string, string> | undefined;
  for (const header of plan.headers) {
    let value: unknown = args;
    for (const key of header.path)
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && !Number.isSafeInteger(value)) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    (out ??= {})[`mcp-param-${header.name.toLowerCase()}`] = encodeHeaderValue(value);
  }
  return out;
}
