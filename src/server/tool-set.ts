/** Merge shim: the tool set moved to `tools/tool-set.ts` (the auth gate imports its type from here until then). */
export type { ToolSet } from './tools/tool-set.js';
