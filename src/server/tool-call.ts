/** Merge shim: the tool call moved to `tools/tool-call.ts` (the package entry imports from here until then). */
export { KIT_ERROR_CODES } from './tools/tool-call.js';
export type { ToolErrorBody } from './tools/tool-call.js';
