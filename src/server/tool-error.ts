/** Merge shim: `ToolError` moved to `tools/tool-error.ts` (the package entry imports it from here until then). */
export { ToolError } from './tools/tool-error.js';
export type { ToolErrorDetails } from './tools/tool-error.js';
