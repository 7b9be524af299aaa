/**
 * `mcpwire/server` where there is no Node (the package's `default` condition: Workers, browsers,
 * any bundle for `--platform=neutral`): the server kit without stdio and `node:http`. Loading it
 * installs the JSON Schema engine that needs no code generation, so tool schemas are checked
 * where `new Function` is forbidden; Ajv stays the engine wherever it can run.
 */
import { installNoEvalCompiler } from '../protocol/schema-engines.js';
import { compileWithoutEval } from '../protocol/schema-no-eval.js';

// The neutral surface is one explicit list (kit-surface.ts); both entries re-export it whole.
export * from './kit-surface.js';

installNoEvalCompiler(compileWithoutEval);
