/**
 * Validation of wire messages against the official MCP JSON Schemas, read in place from
 * `../shared/mcp-spec/<revision>/schema.json` beside the clone (never copied into the project).
 *
 * Each message is checked twice: against the JSON-RPC envelope of its shape (request,
 * notification, result or error response), then against the definition its method selects in the
 * revision's direction-aware unions (`ClientRequest`, `ServerNotification`, …). The method →
 * definition index is built from the schema itself (`properties.method.const`), so a new
 * revision needs no table here. Schemas compile on first use and are cached per revision.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describeSchemaError } from '../../src/inspect/trace/schema-check.js';

/** The revisions whose schemas the kit knows how to find, oldest first. */
export const SCHEMA_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** Who sent the message: `client` = client → server, `server` = server → client. */
export type MessageDirection = 'client' | 'server';

/** The outcome of {@link validateMessage}; `errors` is a readable multi-line list. */
export type ValidationOutcome = { ok: true } | { ok: false; errors: string };

/** Options for {@link validateMessage}. */
export interface ValidateOptions {
  /**
   * For a result response: the method of the request it answers. Without it a result is checked
   * against the direction's `ClientResult`/`ServerResult` union only.
   */
  forMethod?: string;
  /**
   * The methods of the requests the other side sent, by id. A result response whose id is here
   * (a batch element included) is checked against that method's result; `forMethod` wins.
   */
  requestMethods?: ReadonlyMap<string | number, string>;
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the official schemas live: `<repo>/../shared/mcp-spec`. */
export const SPEC_SCHEMA_DIR = path.resolve(REPO_ROOT, '../shared/mcp-spec');

/** The path of one revision's `schema.json` (which may not exist). */
export function schemaPath(revision: string): string {
  return path.join(SPEC_SCHEMA_DIR, revision, 'schema.json');
}

/** True when the official schema of `revision` is present on disk. */
export function hasSchema(revision: string): boolean {
  return existsSync(schemaPath(revision));
}

/** The revisions of {@link SCHEMA_REVISIONS} whose schema is present, oldest first. */
export function revisionsWithSchemas(): string[] {
  return SCHEMA_REVISIONS.filter(hasSchema);
}

/** A sentence for `it.skip`/`describe.skipIf` messages saying why `revision` cannot be checked. */
export function missingSchemaMessage(revision: string): string {
  return `no MCP JSON Schema for revision ${revision}: ${schemaPath(revision)} does not exist (the shared/ folder belongs beside the clone)`;
}

/** Whether a method-bearing message is a request (has an id) or a notification. */
export type MessageKind = 'request' | 'notification';
type Kind = MessageKind;

interface RevisionKit {
  revision: string;
  ajv: Ajv;
  /** `#/definitions/` or `#/$defs/`, prefixed with the schema's key in `ajv`. */
  refBase: string;
  defs: Record<string, Record<string, unknown>>;
  /** direction → kind → method → definition name. */
  methods: Record<MessageDirection, Record<Kind, Map<string, string>>>;
  validators: Map<string, ValidateFunction>;
}

const kits = new Map<string, RevisionKit>();
const nodeRequire = createRequire(import.meta.url);

function newAjv(dialect2020: boolean): Ajv {
  let addFormats: ((ajv: Ajv) => unknown) | undefined;
  try {
    // ajv-formats is not a declared dependency; use it when the tree happens to hold it.
    const loaded = nodeRequire('ajv-formats') as { default?: (ajv: Ajv) => unknown };
    addFormats = loaded.default ?? (loaded as unknown as (ajv: Ajv) => unknown);
  } catch {
    addFormats = undefined;
  }
  const options: Options = {
    strict: false,
    allErrors: true,
    validateSchema: false,
    validateFormats: addFormats !== undefined,
  };
  const ajv = dialect2020 ? new Ajv2020(options) : new Ajv(options);
  addFormats?.(ajv);
  return ajv;
}

function kitFor(revision: string): RevisionKit {
  const cached = kits.get(revision);
  if (cached) return cached;
  if (!hasSchema(revision)) throw new Error(missingSchemaMessage(revision));
  const schema = JSON.parse(readFileSync(schemaPath(revision), 'utf8')) as Record<string, unknown>;
  const dialect2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const defsKey = '$defs' in schema ? '$defs' : 'definitions';
  const defs = schema[defsKey] as Record<string, Record<string, unknown>>;
  const key = `mcp-${revision}`;
  const ajv = newAjv(dialect2020);
  ajv.addSchema(schema, key);
  const kit: RevisionKit = {
    revision,
    ajv,
    refBase: `${key}#/${defsKey}/`,
    defs,
    methods: {
      client: { request: methodIndex(defs, 'ClientRequest'), notification: methodIndex(defs, 'ClientNotification') },
      server: { request: methodIndex(defs, 'ServerRequest'), notification: methodIndex(defs, 'ServerNotification') },
    },
    validators: new Map(),
  };
  kits.set(revision, kit);
  return kit;
}

const UNION_NAMES = new Set([
  'ClientRequest',
  'ClientNotification',
  'ServerRequest',
  'ServerNotification',
  'ClientResult',
  'ServerResult',
]);

function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

function methodConst(def: Record<string, unknown> | undefined): string | undefined {
  const method = (def?.properties as Record<string, { const?: unknown }> | undefined)?.method;
  return typeof method?.const === 'string' ? method.const : undefined;
}

/**
 * Method → definition name for one union. A union absent from the schema means the revision has
 * no such messages (2026-07-28 has no `ServerRequest`). A union that is a single inline
 * definition (2026-07-28 `ClientNotification`) is mapped to the named definition it duplicates.
 */
function methodIndex(defs: Record<string, Record<string, unknown>>, unionName: string): Map<string, string> {
  const index = new Map<string, string>();
  const union = defs[unionName];
  if (!union) return index;
  const members = Array.isArray(union.anyOf) ? union.anyOf : Array.isArray(union.oneOf) ? union.oneOf : [union];
  const suffix = unionName.endsWith('Request') ? 'Request' : 'Notification';
  for (const member of members as Array<Record<string, unknown>>) {
    const name = refName(member.$ref);
    const method = methodConst(name ? defs[name] : member);
    if (method === undefined) continue;
    const named =
      name ??
      Object.keys(defs).find((n) => n.endsWith(suffix) && !UNION_NAMES.has(n) && methodConst(defs[n]) === method) ??
      unionName;
    index.set(method, named);
  }
  return index;
}

function validatorFor(kit: RevisionKit, definition: string): ValidateFunction {
  let validate = kit.validators.get(definition);
  if (!validate) {
    const found = kit.ajv.getSchema(kit.refBase + definition);
    if (!found) throw new Error(`schema ${kit.revision} has no definition ${definition}`);
    validate = found;
    kit.validators.set(definition, validate);
  }
  return validate;
}

function describeError(error: ErrorObject, prefix: string): string {
  return `${prefix + error.instancePath || '(root)'} ${describeSchemaError(error as { message?: string; params: Record<string, unknown> })}`;
}

/** Validates `value` against one named definition; problems are prefixed with `prefix` (a JSON pointer). */
function check(kit: RevisionKit, definition: string, value: unknown, prefix = ''): string[] {
  const validate = validatorFor(kit, definition);
  if (validate(value)) return [];
  const lines = (validate.errors ?? []).map((e) => `${definition}: ${describeError(e, prefix)}`);
  return [...new Set(lines)];
}

function firstDefinition(kit: RevisionKit, ...names: string[]): string {
  const found = names.find((n) => n in kit.defs);
  if (!found) throw new Error(`schema ${kit.revision} has none of ${names.join(', ')}`);
  return found;
}

const other = (direction: MessageDirection): MessageDirection => (direction === 'client' ? 'server' : 'client');

/** The result definition that answers the request definition `requestDef` (`CallToolRequest` → `CallToolResult`). */
function resultDefinitionFor(kit: RevisionKit, requestDef: string, result: unknown): string {
  const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  // A result may take another shape than the method's own: MRTR (2026) and task-augmented calls (2025-11-25).
  if (value.resultType === 'input_required' && 'InputRequiredResult' in kit.defs) return 'InputRequiredResult';
  if ('task' in value && !('content' in value) && 'CreateTaskResult' in kit.defs) return 'CreateTaskResult';
  const own = requestDef.replace(/Request$/, 'Result');
  return firstDefinition(kit, own, 'EmptyResult', 'Result');
}

function checkSingle(
  kit: RevisionKit,
  message: unknown,
  direction: MessageDirection,
  options: ValidateOptions,
  prefix: string,
): string[] {
  const rev = kit.revision;
  const sender = direction === 'client' ? 'a client' : 'a server';
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return [`${prefix || '(root)'} a message must be a JSON object`];
  const value = message as Record<string, unknown>;

  if ('method' in value) {
    const kind: Kind = 'id' in value ? 'request' : 'notification';
    const envelope = check(kit, kind === 'request' ? 'JSONRPCRequest' : 'JSONRPCNotification', value, prefix);
    if (typeof value.method !== 'string') return envelope;
    const method = value.method;
    const definition = kit.methods[direction][kind].get(method);
    if (definition) return [...envelope, ...check(kit, definition, value, prefix)];
    const otherKind: Kind = kind === 'request' ? 'notification' : 'request';
    let reason: string;
    if (kit.methods[direction][otherKind].has(method)) {
      reason =
        kind === 'request'
          ? `${prefix}/id "${method}" is a notification in ${rev}: it must not carry "id"`
          : `${prefix || '(root)'} "${method}" is a request in ${rev}: it must carry an "id"`;
    } else if (kit.methods[other(direction)][kind].has(method)) {
      reason = `${prefix}/method "${method}" is a ${other(direction)} ${kind} in ${rev}: ${sender} must not send it`;
    } else if (kit.methods[direction][kind].size === 0) {
      reason = `${prefix}/method ${rev} has no ${direction} → ${other(direction)} ${kind}s at all, so "${method}" cannot be sent by ${sender}`;
    } else {
      reason = `${prefix}/method "${method}" is not a ${direction} ${kind} of ${rev}`;
    }
    return [...envelope, reason];
  }

  if ('result' in value) {
    if ('error' in value) return [`${prefix || '(root)'} a response must not carry both "result" and "error"`];
    const envelope = check(kit, firstDefinition(kit, 'JSONRPCResultResponse', 'JSONRPCResponse'), value, prefix);
    // A response answers a request the other side sent.
    const answered = kit.methods[other(direction)].request;
    if (answered.size === 0) {
      return [
        ...envelope,
        `${prefix}/result ${rev} has no ${other(direction)} → ${direction} requests, so ${sender} never sends a result`,
      ];
    }
    const id = value.id;
    const forMethod =
      options.forMethod ??
      (typeof id === 'string' || typeof id === 'number' ? options.requestMethods?.get(id) : undefined);
    if (forMethod === undefined) {
      return [
        ...envelope,
        ...check(kit, direction === 'client' ? 'ClientResult' : 'ServerResult', value.result, `${prefix}/result`),
      ];
    }
    const requestDef = answered.get(forMethod);
    if (!requestDef) {
      return [
        ...envelope,
        `${prefix}/result answers "${forMethod}", which is not a ${other(direction)} request in ${rev}`,
      ];
    }
    return [
      ...envelope,
      ...check(kit, resultDefinitionFor(kit, requestDef, value.result), value.result, `${prefix}/result`),
    ];
  }

  if ('error' in value) return check(kit, firstDefinition(kit, 'JSONRPCErrorResponse', 'JSONRPCError'), value, prefix);
  return [`${prefix || '(root)'} message has none of "method", "result" or "error"`];
}

function checkBatch(
  kit: RevisionKit,
  batch: unknown[],
  direction: MessageDirection,
  options: ValidateOptions,
): string[] {
  if (!('JSONRPCBatchRequest' in kit.defs))
    return [`(root) ${kit.revision} has no JSON-RPC batches (only 2025-03-26 does)`];
  if (batch.length === 0) return ['(root) an empty batch is not a valid message'];
  const isCall = (m: unknown) => typeof m === 'object' && m !== null && 'method' in m;
  const calls = batch.filter(isCall).length;
  if (calls !== 0 && calls !== batch.length)
    return ['(root) a batch holds either requests and notifications or responses, not both'];
  const envelope = check(kit, calls ? 'JSONRPCBatchRequest' : 'JSONRPCBatchResponse', batch);
  return [...envelope, ...batch.flatMap((m, i) => checkSingle(kit, m, direction, options, `/${i}`))];
}

/**
 * Validates one wire value (a message, or a batch array where the revision has batches) sent by
 * `direction` against `revision`'s official schema. Requests and notifications are checked
 * against the definition their method selects among that direction's unions; result responses
 * against the result of the method they answer (`options.forMethod`, or looked up by id in
 * `options.requestMethods`), else the direction's result union. Throws (does not return) when the revision has no
 * schema: check {@link hasSchema} first.
 */
export function validateMessage(
  revision: string,
  message: unknown,
  direction: MessageDirection,
  options: ValidateOptions = {},
): ValidationOutcome {
  const kit = kitFor(revision);
  const problems = Array.isArray(message)
    ? checkBatch(kit, message, direction, options)
    : checkSingle(kit, message, direction, options, '');
  return problems.length === 0 ? { ok: true } : { ok: false, errors: problems.join('\n') };
}

/**
 * Validates `value` against one named definition of `revision` (e.g. `JSONRPCRequest`). Throws for an unknown
 * definition.
 */
export function validateDefinition(revision: string, definition: string, value: unknown): ValidationOutcome {
  const problems = check(kitFor(revision), definition, value);
  return problems.length === 0 ? { ok: true } : { ok: false, errors: problems.join('\n') };
}

/**
 * The definition name `revision` uses for `method` sent by `direction` as a `kind`
 * (`tools/call` from the client → `CallToolRequest`), or undefined when there is none.
 */
export function definitionForMethod(
  revision: string,
  direction: MessageDirection,
  kind: MessageKind,
  method: string,
): string | undefined {
  return kitFor(revision).methods[direction][kind].get(method);
}

/**
 * The raw JSON Schema of one definition of `revision` (`CallToolResult`), or undefined when the
 * revision does not define it. For tests that check a fact of the schema itself; do not mutate.
 */
export function schemaDefinition(revision: string, definition: string): Readonly<Record<string, unknown>> | undefined {
  return kitFor(revision).defs[definition];
}

/** Throws an Error listing the schema problems and the message when {@link validateMessage} fails. */
export function assertValidMessage(
  revision: string,
  message: unknown,
  direction: MessageDirection,
  options: ValidateOptions = {},
): void {
  const outcome = validateMessage(revision, message, direction, options);
  if (outcome.ok) return;
  const forMethod = options.forMethod === undefined ? '' : ` (answering ${options.forMethod})`;
  throw new Error(
    `${direction} message is invalid for MCP ${revision}${forMethod}:\n${indent(outcome.errors)}\nmessage:\n${indent(JSON.stringify(message, null, 2))}`,
  );
}

/** {@link assertValidMessage} for a message the client sent. */
export function assertValidClientMessage(revision: string, message: unknown, options: ValidateOptions = {}): void {
  assertValidMessage(revision, message, 'client', options);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
