/**
 * TypeScript declarations for a set of named JSON Schemas, through json-schema-to-typescript
 * (an optional peer dependency, loaded on first use: it brings Prettier and a `$ref` resolver,
 * ~20 MB a library user never needs; absent, `DEPENDENCY_MISSING` names the install). All schemas go into one
 * document so the generator's name bookkeeping sees every nested type at once: two tools whose
 * schemas both hold a `Task` get `Task` and `Task1`, never two declarations of one name.
 */
import { importOptionalPeer } from '../protocol/missing-dependency.js';
import { copySchema, MAX_TUPLE_ITEMS } from './schema-copy.js';
import { RESERVED_TYPE_NAMES } from './type-names.js';

/** One schema to declare under a chosen name. */
export interface NamedSchema {
  /** The type name (PascalCase, unique, not reserved: see `toolTypeNames`). */
  name: string;
  /** The schema as the server sent it. */
  schema: unknown;
}

/** The declarations, and each name whose schema was (partly) typed `unknown` with why. */
export interface SchemaTypes {
  code: string;
  notes: Array<{ name: string; message: string }>;
}

/** The document's own root type, declared by the generator and cut from its output. */
const CONTAINER = 'McpwireEmitTsContainer';

type Generator = typeof import('json-schema-to-typescript');

interface Loaded {
  compile: Generator['compile'];
  safeName: (text: string) => string;
  format: (code: string) => Promise<string>;
}

/** The layout of an emitted module (Prettier's options). */
const STYLE = { singleQuote: true, printWidth: 120, trailingComma: 'all', bracketSpacing: true, semi: true } as const;

let loaded: Promise<Loaded> | undefined;

/**
 * Loads the generator (once). Rejects with `DEPENDENCY_MISSING` (`MissingDependencyError`) when
 * json-schema-to-typescript is not installed; a later call tries again (it may be by then).
 * `mcpwire emit-ts` calls it before it starts a server, so a missing generator is told at once.
 */
export async function loadSchemaGenerator(): Promise<void> {
  await load();
}

function load(): Promise<Loaded> {
  loaded ??= (async () => {
    // Its name rule and its Prettier call (files of its own, not its documented API: the
    // package has no export map), so the module's names and layout are the generator's own. A
    // version without the formatter file still works: the module is then left unformatted.
    const generator = await importOptionalPeer('json-schema-to-typescript', () => import('json-schema-to-typescript'));
    const [utils, formatter] = await Promise.all([
      import('json-schema-to-typescript/dist/src/utils.js'),
      import('json-schema-to-typescript/dist/src/formatter.js').catch(() => undefined),
    ]);
    const options = { ...generator.DEFAULT_OPTIONS, format: true, style: STYLE };
    return {
      compile: generator.compile,
      safeName: utils.toSafeString,
      format: (code: string) => (formatter ? formatter.format(code, options) : Promise.resolve(code)),
    };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/**
 * Declares every schema of `schemas` as an exported type of its name (an interface, or a type
 * alias), with the nested types they need. A schema the generator cannot handle is declared
 * as an object of unknown values and noted, and so is any part of a schema that points outside
 * it or nests too deeply; the rest is unaffected. Rejects only when the generator fails on the
 * document with every failing schema replaced (not seen).
 */
export async function schemaTypes(schemas: readonly NamedSchema[]): Promise<SchemaTypes> {
  const { compile, safeName } = await load();
  const reserved = new Set([...RESERVED_TYPE_NAMES, CONTAINER, ...schemas.map((s) => s.name)]);
  const notes: SchemaTypes['notes'] = [];
  const copies = new Map<string, Record<string, unknown>>();
  for (const { name, schema } of schemas) {
    if (safeName(name) !== name) throw new Error(`emit-ts: "${name}" is not a type name the generator keeps`);
    const copy = copySchema(schema, {
      base: `#/$defs/${name}`,
      safeName,
      reserved,
      note: (message) => notes.push({ name, message }),
    });
    copies.set(name, { ...copy, title: name });
  }
  const generate = (names: readonly string[]) =>
    quietly(() =>
      compile(documentOf(names, copies), CONTAINER, {
        bannerComment: '',
        additionalProperties: true,
        declareExternallyReferenced: true,
        unreachableDefinitions: false,
        unknownAny: true,
        strictIndexSignatures: false,
        format: false, // the whole module is formatted once (formatModule)
        // Never read a file or URL a schema names (copySchema keeps only `#` references anyway).
        $refOptions: { resolve: { external: false } },
        maxItems: MAX_TUPLE_ITEMS,
      }),
    );
  const names = schemas.map((s) => s.name);
  let code: string;
  try {
    code = await generate(names);
  } catch {
    for (const name of names) {
      try {
        await generate([name]);
      } catch (error) {
        // In the server's terms: its own pointers, not where this document put the schema.
        const why = (error instanceof Error ? error.message.split('\n')[0]! : String(error))
          .replaceAll(`#/$defs/${name}`, '#')
          .replace(/ Given id=\S* in \w+\.?$/, '')
          .slice(0, 200);
        notes.push({ name, message: `its schema could not be turned into a type (${why}): typed as an object` });
        copies.set(name, { type: 'object', title: name });
      }
    }
    code = await generate(names);
  }
  return { code: withoutContainer(code, names), notes };
}

/**
 * `code` (a whole TypeScript module) laid out by Prettier, as the generator lays out its own
 * output; the code unchanged when Prettier cannot parse it (it is still valid, only unformatted).
 */
export async function formatModule(code: string): Promise<string> {
  const { format } = await load();
  try {
    return await format(code);
  } catch {
    return code;
  }
}

/**
 * Runs the generator with its debug log off: with `VERBOSE` in the environment it writes to
 * stdout, where `mcpwire emit-ts` writes the module.
 */
async function quietly<T>(generate: () => Promise<T>): Promise<T> {
  const verbose = process.env.VERBOSE;
  delete process.env.VERBOSE;
  try {
    return await generate();
  } finally {
    if (verbose !== undefined) process.env.VERBOSE = verbose;
  }
}

function documentOf(names: readonly string[], copies: Map<string, Record<string, unknown>>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const $defs: Record<string, unknown> = {};
  names.forEach((name, i) => {
    properties[`r${i}`] = { $ref: `#/$defs/${name}` };
    $defs[name] = copies.get(name);
  });
  return {
    title: CONTAINER,
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    $defs,
  };
}

/**
 * The generator's output without the container's declaration, after checking that each schema
 * got exactly its name (the container lists `rN: Name`) and no reserved name was declared.
 */
function withoutContainer(code: string, names: readonly string[]): string {
  const block = new RegExp(`^export interface ${CONTAINER} \\{\\n([\\s\\S]*?)^\\}\\n`, 'm').exec(code);
  if (!block) throw new Error('emit-ts: the generator did not declare the schemas as expected');
  const members = block[1]!
    .split('\n')
    .map((line) => /^\s*r(\d+): (\w+);?$/.exec(line))
    .filter((m) => m !== null);
  const given = new Map(members.map((m) => [Number(m[1]), m[2]]));
  names.forEach((name, i) => {
    if (given.get(i) !== name) throw new Error(`emit-ts: the type of "${name}" was named ${given.get(i) ?? 'nothing'}`);
  });
  const rest = code.slice(0, block.index) + code.slice(block.index + block[0].length);
  for (const m of rest.matchAll(/^export (?:interface|type|(?:const )?enum) (\w+)/gm)) {
    if (RESERVED_TYPE_NAMES.has(m[1]!) || m[1] === CONTAINER)
      throw new Error(`emit-ts: a nested type took the reserved name ${m[1]}`);
  }
  return rest.trim();
}
