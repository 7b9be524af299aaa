/**
 * `mcpwire` where there is no Node (the package's `default` condition: browsers, Workers, any
 * bundle for `--platform=browser` or `--platform=neutral`): the client and everything in
 * `client-surface.ts`, without stdio, the trace file sink, the manager and the config files.
 * Loading it installs the JSON Schema engine that needs no code generation, so tool input and
 * structured output are checked where `new Function` is forbidden (Workers, strict-CSP pages);
 * Ajv stays the engine wherever it can run. `connect({ command })` rejects here with `UNSUPPORTED`.
 */
import { installNoEvalCompiler } from './protocol/schema-engines.js';
import { compileWithoutEval } from './protocol/schema-no-eval.js';

// The neutral surface is one explicit list (client-surface.ts); both entries re-export it whole.
export * from './client-surface.js';

installNoEvalCompiler(compileWithoutEval);
