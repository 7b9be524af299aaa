/**
 * Which JSON Schema engine compiles mcpwire's schemas, chosen once per process by what the runtime
 * allows: Ajv (fast, generates code) where `new Function` works and Node's `require` is reachable
 * (Node, Deno, Bun, through `process.getBuiltinModule`, so no bundle for a Worker sees a `node:`
 * import); otherwise the engine that needs no code generation (`@cfworker/json-schema`, walking
 * the schema), which the runtime-neutral entries install (`installNoEvalCompiler`, or
 * `installNoEvalLoader` to load it on first use) so that Node never loads it. Both report
 * Ajv-shaped problems (`AjvValidate`).
 */
import type { JsonSchema } from './types.js';

/** A JSON Schema dialect mcpwire validates. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** A compiled schema as Ajv makes it: true when the value conforms, the problems in `errors`. */
export type AjvValidate<Problem = unknown> = ((value: unknown) => boolean) & { errors?: Problem[] | null };

/** The engines: Ajv, or the one without code generation. */
export type SchemaEngine = 'ajv' | 'no-eval';

/** The options mcpwire gives a compiler (Ajv's names; the no-eval engine reads the same ones). */
export interface SchemaCompileOptions {
  /** Report every problem, not only the first. */
  allErrors?: boolean;
  /** Check `format`s (default true). */
  validateFormats?: boolean;
  /** Check the schema itself before use (default true): a schema that is not valid throws. */
  validateSchema?: boolean;
}

/** Compiles `schema` by `dialect` without code generation; throws for a schema that is not valid. */
export type NoEvalCompiler = (schema: JsonSchema, dialect: SchemaDialect, options: SchemaCompileOptions) => AjvValidate;

/** Loads the no-eval engine's module on first use (a lazy `() => import(…)`). */
export type NoEvalLoader = () => Promise<{ compileWithoutEval: NoEvalCompiler }>;

/** Loads a module by specifier (Node's `require`). */
export type ModuleLoader = (specifier: string) => unknown;

type Host = { process?: { getBuiltinModule?: (id: string) => unknown } };

let codeGeneration: boolean | undefined;
let loader: ModuleLoader | null | undefined;
let noEval: NoEvalCompiler | undefined;
let noEvalLoad: NoEvalLoader | undefined;

/** True where the runtime lets code be generated (`new Function`): not on Workers, nor under a strict CSP. */
export function codeGenerationAllowed(): boolean {
  if (codeGeneration === undefined) {
    // Workers allow `new Function` while a module loads and forbid it in handlers: asked while
    // loading, the probe would pass there; the runtime names itself instead.
    if ((globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers')
      return (codeGeneration = false);
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe itself: does the runtime allow it?
      new Function('');
      codeGeneration = true;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

/** Node's `require` (relative to this module) where the runtime has `node:module`; undefined elsewhere. */
export function nodeRequire(): ModuleLoader | undefined {
  if (loader === undefined) {
    const module = (globalThis as Host).process?.getBuiltinModule?.('node:module') as
      { createRequire(from: string): ModuleLoader } | undefined;
    try {
      // A bundle may carry no module URL (`import.meta.url` undefined on workerd): no `require` then.
      loader = module ? module.createRequire(import.meta.url) : null;
    } catch {
      loader = null;
    }
  }
  return loader ?? undefined;
}

/** Makes `compile` the engine for runtimes where Ajv cannot run. Idempotent for one compiler. */
export function installNoEvalCompiler(compile: NoEvalCompiler): void {
  noEval = compile;
}

/**
 * Makes `load` the way to the engine for runtimes where Ajv cannot run, loaded on first
 * {@link schemaEngineReady} (a browser client that never meets an output schema never loads it).
 */
export function installNoEvalLoader(load: NoEvalLoader): void {
  noEvalLoad = load;
}

/**
 * Undefined when compiling can start now (Ajv runs here, the no-eval compiler is installed, or
 * no loader was installed: then compiling reports what is missing); else a promise settled once
 * the installed loader has installed the no-eval compiler. Call it before compiling in async code.
 */
export function schemaEngineReady(): Promise<void> | undefined {
  if (noEval !== undefined || noEvalLoad === undefined || preferredEngine() === 'ajv') return undefined;
  return noEvalLoad().then((loaded) => {
    noEval ??= loaded.compileWithoutEval;
  });
}

/** The no-eval compiler, when an entry installed one. */
export function noEvalCompiler(): NoEvalCompiler | undefined {
  return noEval;
}

/** The engine this runtime uses: Ajv where it can run, else the no-eval one. */
export function preferredEngine(): SchemaEngine {
  return codeGenerationAllowed() && nodeRequire() !== undefined ? 'ajv' : 'no-eval';
}
