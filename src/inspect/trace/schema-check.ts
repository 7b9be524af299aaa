/**
 * Validation of recorded messages against the official MCP JSON Schemas, read from a directory
 * laid out as `<dir>/<revision>/schema.json` (the layout of the spec repository's `schema/`
 * folder). The schemas are data the user points at; mcpwire ships none.
 *
 * Which definition applies is read from the schema itself: the members of its
 * `ClientRequest`/`ClientNotification`/`ServerRequest`/`ServerNotification` unions, by their
 * `method` constant. A result is checked against the result of the request it answers
 * (`CallToolRequest` → `CallToolResult`; `InputRequiredResult` for a 2026 `input_required`;
 * `CreateTaskResult` for a 2025-11-25 task-augmented call; `EmptyResult` where the method has no
 * result of its own). Ajv loads on first use; each revision compiles once per directory.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { errorMessage, McpError } from '../../protocol/errors.js';

/** One schema failure. `path` is ajv's instance path in the message (`/result/content/0`). */
export interface SchemaFinding {
  /** The definition that failed (`CallToolResult`). */
  definition: string;
  path: string;
  message: string;
}

/** What {@link SpecSchemas.check} needs to know about one message. */
export interface SchemaSubject {
  /** A single JSON-RPC message (batch items one by one). */
  message: unknown;
  /** Who sent it. */
  sender: 'client' | 'server';
  /** For a result: the method of the request it answers (unknown: the envelope only is checked). */
  answers?: string;
  /** For a result: the params of the request it answers. */
  requestParams?: unknown;
  /** Put before every instance path (a batch item: `/2`). */
  pathPrefix?: string;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  schema?: unknown;
}
type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvInstance {
  addSchema(schema: object, key: string): unknown;
  getSchema(ref: string): Validate | undefined;
}

type Sender = 'client' | 'server';
type Kind = 'request' | 'notification';

interface Revision {
  ajv: AjvInstance;
  ref: string;
  defs: Record<string, Record<string, unknown>>;
  /** sender → kind → method → definition name. */
  methods: Record<Sender, Record<Kind, Map<string, string>>>;
  validators: Map<string, Validate>;
}

const nodeRequire = createRequire(import.meta.url);

function newAjv(draft2020: boolean): AjvInstance {
  // verbose: an anyOf failure carries its branches, so it can be named instead of listing each branch's errors.
  const options = { strict: false, allErrors: false, validateSchema: false, validateFormats: false, verbose: true };
  const module = draft2020
    ? (nodeRequire('ajv/dist/2020.js') as { default: new (o: object) => AjvInstance })
    : (nodeRequire('ajv') as { default: new (o: object) => AjvInstance });
  return new module.default(options);
}

function constMethod(definition: Record<string, unknown> | undefined): string | undefined {
  const method = (definition?.properties as Record<string, { const?: unknown }> | undefined)?.method?.const;
  return typeof method === 'string' ? method : undefined;
}

/**
 * method → definition name for one union (absent union: none; an inline member: the named definition with its method).
 */
function unionMethods(
  defs: Record<string, Record<string, unknown>>,
  union: string,
  suffix: string,
): Map<string, string> {
  const index = new Map<string, string>();
  const node = defs[union];
  if (!node) return index;
  const members = (node.anyOf ?? node.oneOf ?? [node]) as Array<Record<string, unknown>>;
  for (const member of members) {
    const name = typeof member.$ref === 'string' ? member.$ref.split('/').pop()! : undefined;
    const method = constMethod(name ? defs[name] : member);
    if (method === undefined) continue;
    const named =
      name ??
      Object.keys(defs).find(
        (n) =>
          n.endsWith(suffix) &&
          n !== union &&
          !n.startsWith('Client') &&
          !n.startsWith('Server') &&
          constMethod(defs[n]) === method,
      );
    if (named) index.set(method, named);
  }
  return index;
}

/** Ajv's message for one error plus the value it names (the extra property, the allowed values). */
export function describeSchemaError(error: { message?: string; params: Record<string, unknown> }): string {
  const params = error.params;
  const extra =
    params.additionalProperty !== undefined
      ? ` "${String(params.additionalProperty)}"`
      : params.allowedValue !== undefined
        ? ` ${JSON.stringify(params.allowedValue)}`
        : Array.isArray(params.allowedValues)
          ? ` ${JSON.stringify(params.allowedValues)}`
          : '';
  return `${error.message ?? 'is invalid'}${extra}`;
}

function anyOfBranches(error: AjvError): string {
  const branches = Array.isArray(error.schema) ? (error.schema as Array<{ $ref?: unknown }>) : [];
  const names = branches
    .map((b) => (typeof b.$ref === 'string' ? b.$ref.split('/').pop() : undefined))
    .filter((n): n is string => n !== undefined);
  return names.length ? `must match one of ${names.join(', ')}` : (error.message ?? 'must match a schema in anyOf');
}

/**
 * Ajv's errors as findings. The branch errors of a failed `anyOf`/`oneOf` are noise (every
 * branch fails by definition), so at or under such a path only the outermost alternative
 * failure is kept, naming its branches.
 */
function findings(definition: string, prefix: string, errors: readonly AjvError[]): SchemaFinding[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const within = (e: AjvError, a: AjvError) =>
    e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`);
  const kept = errors.filter((e) => {
    const covering = alternatives.filter((a) => a !== e && within(e, a));
    return covering.length === 0;
  });
  const seen = new Set<string>();
  const out: SchemaFinding[] = [];
  for (const e of kept) {
    const where = prefix + e.instancePath || '(root)';
    const text = e.keyword === 'anyOf' || e.keyword === 'oneOf' ? anyOfBranches(e) : describeSchemaError(e);
    const message = `${where} ${text} (${definition})`;
    if (seen.has(message)) continue;
    seen.add(message);
    out.push({ definition, path: where, message });
  }
  return out;
}

/** The official schemas of one directory; see the module comment. */
export class SpecSchemas {
  private readonly revisions = new Map<string, Revision | null>();

  /** Throws `INVALID_ARGUMENT` when `dir` is not a directory. */
  constructor(readonly dir: string) {
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir)
      throw new McpError(
        'INVALID_ARGUMENT',
        `the schemas directory ${dir} does not exist (expected <dir>/<revision>/schema.json)`,
      );
  }

  /** True when `<dir>/<revision>/schema.json` exists. */
  has(revision: string): boolean {
    return /^[\w.-]+$/.test(revision) && existsSync(this.file(revision));
  }

  /**
   * Validates one message under `revision`. Returns no findings for a revision without a schema
   * (check {@link has}), and for a method the revision's unions do not hold (the envelope is
   * still checked: which methods exist is for the rules to say). Throws `INVALID_ARGUMENT` for a
   * schema file that is not JSON.
   */
  check(revision: string, subject: SchemaSubject): SchemaFinding[] {
    // The envelope and the method's own definition often fail on the same field: say it once.
    const seen = new Set<string>();
    return this.checkAll(revision, subject).filter((f) => {
      const key = f.message.slice(0, f.message.lastIndexOf(' ('));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private checkAll(revision: string, subject: SchemaSubject): SchemaFinding[] {
    const kit = this.load(revision);
    if (!kit) return [];
    const message = subject.message;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return [];
    const value = message as Record<string, unknown>;
    const other: Sender = subject.sender === 'client' ? 'server' : 'client';
    const prefix = subject.pathPrefix ?? '';
    if ('method' in value) {
      const kind: Kind = 'id' in value ? 'request' : 'notification';
      const envelope = this.validate(kit, kind === 'request' ? 'JSONRPCRequest' : 'JSONRPCNotification', value, prefix);
      const definition =
        typeof value.method === 'string' ? kit.methods[subject.sender][kind].get(value.method) : undefined;
      return definition ? [...envelope, ...this.validate(kit, definition, value, prefix)] : envelope;
    }
    if ('result' in value) {
      const envelope = this.validate(kit, this.first(kit, 'JSONRPCResultResponse', 'JSONRPCResponse'), value, prefix);
      if (subject.answers === undefined) return envelope;
      const request = kit.methods[other].request.get(subject.answers);
      if (!request) return envelope;
      return [
        ...envelope,
        ...this.validate(
          kit,
          this.resultDefinition(kit, request, value.result, subject.requestParams),
          value.result,
          `${prefix}/result`,
        ),
      ];
    }
    if ('error' in value)
      return this.validate(kit, this.first(kit, 'JSONRPCErrorResponse', 'JSONRPCError'), value, prefix);
    return [];
  }

  private file(revision: string): string {
    return path.join(this.dir, revision, 'schema.json');
  }

  private load(revision: string): Revision | null {
    const cached = this.revisions.get(revision);
    if (cached !== undefined) return cached;
    if (!this.has(revision)) {
      this.revisions.set(revision, null);
      return null;
    }
    let schema: Record<string, unknown>;
    try {
      schema = JSON.parse(readFileSync(this.file(revision), 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new McpError('INVALID_ARGUMENT', `cannot read the schema ${this.file(revision)}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    const defsKey = '$defs' in schema ? '$defs' : 'definitions';
    const defs = (schema[defsKey] ?? {}) as Record<string, Record<string, unknown>>;
    const ajv = newAjv(typeof schema.$schema === 'string' && schema.$schema.includes('2020-12'));
    const key = `mcp-${revision}`;
    ajv.addSchema(schema, key);
    const kit: Revision = {
      ajv,
      ref: `${key}#/${defsKey}/`,
      defs,
      methods: {
        client: {
          request: unionMethods(defs, 'ClientRequest', 'Request'),
          notification: unionMethods(defs, 'ClientNotification', 'Notification'),
        },
        server: {
          request: unionMethods(defs, 'ServerRequest', 'Request'),
          notification: unionMethods(defs, 'ServerNotification', 'Notification'),
        },
      },
      validators: new Map(),
    };
    this.revisions.set(revision, kit);
    return kit;
  }

  private first(kit: Revision, ...names: string[]): string {
    return names.find((n) => n in kit.defs) ?? names[0]!;
  }

  private resultDefinition(kit: Revision, request: string, result: unknown, requestParams: unknown): string {
    const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    const type = value.resultType;
    if (type === 'input_required' && 'InputRequiredResult' in kit.defs) return 'InputRequiredResult';
    // An extension's resultType (tasks: "task") has no core definition beyond Result.
    if (type !== undefined && type !== 'complete' && type !== 'input_required' && 'Result' in kit.defs) return 'Result';
    const taskCall = typeof requestParams === 'object' && requestParams !== null && 'task' in requestParams;
    if (taskCall && 'task' in value && !('content' in value) && 'CreateTaskResult' in kit.defs)
      return 'CreateTaskResult';
    const own = request.replace(/Request$/, 'Result');
    return [own, 'EmptyResult', 'Result'].find((n) => n in kit.defs) ?? 'Result';
  }

  private validate(kit: Revision, definition: string, value: unknown, prefix: string): SchemaFinding[] {
    let validate = kit.validators.get(definition);
    if (!validate) {
      validate = kit.ajv.getSchema(kit.ref + definition);
      if (!validate) return [];
      kit.validators.set(definition, validate);
    }
    if (validate(value)) return [];
    return findings(definition, prefix, validate.errors ?? []);
  }
}

const opened = new Map<string, SpecSchemas>();

/**
 * The {@link SpecSchemas} of `dir`, shared between calls (compiled validators are kept).
 * Throws `INVALID_ARGUMENT` when `dir` is not a directory.
 */
export function openSpecSchemas(dir: string): SpecSchemas {
  const key = path.resolve(dir);
  let schemas = opened.get(key);
  if (!schemas) {
    schemas = new SpecSchemas(key);
    opened.set(key, schemas);
  }
  return schemas;
}
