/**
 * The arguments of `mcpwire call`: `--args-json` (an object, as written) overlaid with each
 * `--arg key=value`, whose value is read by the type the tool's `inputSchema` gives that
 * parameter: a `string` stays the text as written (`id=1` is `"1"`), `number`/`integer`/`boolean`/
 * `null` are parsed, `array`/`object` are JSON, an `enum`/`const` must be one of its values. A
 * value the type cannot read is a {@link UsageError} naming the parameter and the type. A
 * parameter the schema does not type (no schema, no such property, a type the CLI cannot tell)
 * keeps the schema-less reading: JSON when it is JSON, else the text. A key the schema forbids
 * (`additionalProperties: false`) is a usage error listing the parameters. Pure.
 */
import type { Tool } from '../protocol/types.js';
import { coerceValue, listOption, stringOption, UsageError, type ParsedArgs } from './argv.js';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';
const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'array', 'object', 'string'];

interface ParameterSchema {
  type?: unknown;
  enum?: unknown;
  const?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  $ref?: unknown;
}

/** The `tools/call` arguments of this command line for `tool` (its schema, when it has one). */
export function callArguments(args: ParsedArgs, tool?: Pick<Tool, 'name' | 'inputSchema'>): Record<string, unknown> {
  let base: Record<string, unknown> = {};
  const raw = stringOption(args, 'args-json');
  if (raw !== undefined) {
    const parsed = coerceValue(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new UsageError(`--args-json must be a JSON object, got ${raw}`);
    base = parsed as Record<string, unknown>;
  }
  return { ...base, ...pairArguments(listOption(args, 'arg'), tool, (key) => `--arg ${key}`) };
}

/**
 * `key=value` items read by `tool`'s schema as {@link callArguments} reads `--arg` (the repl's
 * `call TOOL k=v …` too); `label` names an item in errors (`--arg k`). Throws {@link UsageError}.
 */
export function pairArguments(
  items: readonly string[],
  tool: Pick<Tool, 'name' | 'inputSchema'> | undefined,
  label: (key: string) => string,
): Record<string, unknown> {
  const schema = tool && isObject(tool.inputSchema) ? tool.inputSchema : undefined;
  const properties = isObject(schema?.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`${label('').trim() || 'an argument'} expects key=value, got "${item}"`);
    const key = item.slice(0, eq);
    const text = item.slice(eq + 1);
    const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (own === undefined && schema?.additionalProperties === false) {
      const names = Object.keys(properties);
      throw new UsageError(
        `tool "${tool!.name}" has no parameter "${key}" (its parameters: ${names.join(', ') || 'none'})`,
      );
    }
    const parameter = resolved(own ?? schema?.additionalProperties, schema);
    out[key] = parameter ? valueFor(tool!.name, label(key), key, text, parameter) : coerceValue(text);
  }
  return out;
}

/** `text` read as `parameter` says, or a usage error naming the parameter and what it takes. */
function valueFor(tool: string, label: string, key: string, text: string, parameter: ParameterSchema): unknown {
  const choices = Array.isArray(parameter.enum)
    ? (parameter.enum as unknown[])
    : 'const' in parameter
      ? [parameter.const]
      : undefined;
  const types = typesOf(parameter);
  if (choices) {
    // The value as written when a choice is that string, else its JSON reading.
    const value = choices.includes(text) ? text : coerceValue(text);
    if (choices.some((choice) => sameValue(choice, value))) return value;
    throw new UsageError(
      `${label}: "${text}" is not one of ${choices.map((c) => JSON.stringify(c)).join(', ')} (tool "${tool}", parameter ${key})`,
    );
  }
  if (!types) return coerceValue(text);
  for (const type of JSON_TYPES) {
    if (!types.includes(type)) continue;
    const value = read(type, text);
    if (value !== NOT) return value;
  }
  throw new UsageError(
    `${label}: "${text}" is not ${types.map(article).join(' or ')} (tool "${tool}" declares ${key} as ${types.join(' | ')})`,
  );
}

const NOT = Symbol('not this type');

/** `text` as one JSON type, or {@link NOT}. */
function read(type: JsonType, text: string): unknown {
  switch (type) {
    case 'string':
      return text;
    case 'null':
      return text === 'null' ? null : NOT;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : NOT;
    case 'integer':
    case 'number': {
      const number = text.trim() === '' ? NaN : Number(text);
      if (!Number.isFinite(number)) return NOT;
      return type === 'integer' && !Number.isInteger(number) ? NOT : number;
    }
    case 'array':
    case 'object': {
      const value = coerceValue(text);
      const isArray = Array.isArray(value);
      return isObjectOrArray(value) && isArray === (type === 'array') ? value : NOT;
    }
  }
}

/**
 * The JSON types a parameter takes (its `type`, or every branch of `anyOf`/`oneOf`), or undefined
 * when it does not say.
 */
function typesOf(parameter: ParameterSchema): JsonType[] | undefined {
  const own = typeof parameter.type === 'string' ? [parameter.type] : parameter.type;
  if (Array.isArray(own)) {
    const types = own.filter((t): t is JsonType => JSON_TYPES.includes(t as JsonType));
    return types.length === own.length && types.length ? types : undefined;
  }
  const branches = Array.isArray(parameter.anyOf) ? parameter.anyOf : parameter.oneOf;
  if (!Array.isArray(branches) || !branches.length) return undefined;
  const types = new Set<JsonType>();
  for (const branch of branches) {
    const found = isObject(branch) ? typesOf(branch) : undefined;
    if (!found) return undefined;
    for (const type of found) types.add(type);
  }
  return [...types];
}

/**
 * A property schema, a local `$ref` (`#/$defs/x`, `#/definitions/x`) followed a few steps;
 * undefined when it is not a schema object.
 */
function resolved(schema: unknown, root: Record<string, unknown> | undefined): ParameterSchema | undefined {
  let current = schema;
  for (let step = 0; step < 8 && isObject(current) && typeof current.$ref === 'string'; step++) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(current.$ref);
    const defs = match && root ? root[match[1]!] : undefined;
    current =
      match && isObject(defs) ? defs[decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isObject(current) && typeof current.$ref !== 'string' ? current : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (isObjectOrArray(a) && isObjectOrArray(b) && JSON.stringify(a) === JSON.stringify(b));
}

function article(type: JsonType): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectOrArray(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
