/**
 * `mcpwire` where there is no Node (the package's `default` condition: browsers, Workers, any
 * bundle for `--platform=browser` or `--platform=neutral`): the client and everything in
 * `client-surface.ts`, without stdio, the trace file sink, the manager and the config files.
 * Loading it installs the loader of the JSON Schema engine that needs no code generation (loaded on
 * the first output schema the client checks), so structured output is checked where `new Function`
 * is forbidden (Workers, strict-CSP pages); Ajv stays the engine wherever it can run.
 * `connect({ command })` rejects here with `UNSUPPORTED`.
 */
import { installNoEvalLoader } from './protocol/schema-engines.js';

// The neutral surface is one explicit list (client-surface.ts); both entries re-export it whole.
export * from './client-surface.js';

installNoEvalLoader(() => import('./protocol/schema-no-eval.js'));
