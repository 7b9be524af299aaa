/**
 * `mcpwire/server` on Node (the package's `node` condition; Deno and Bun take it too): the server
 * kit. Tools with validated input and structured, AI-safe errors, served in both eras over stdio,
 * any message transport, or Streamable HTTP. Everything of the runtime-neutral entry
 * (`neutral.ts`), plus what only Node has: the stdio transport and the `node:http` handler.
 */
// The neutral surface is one explicit list (kit-surface.ts); both entries re-export it whole.
export * from './kit-surface.js';
import { setSkillYamlReader } from './skills/yaml-reader.js';
export { StdioServerTransport } from '../transport/stdio/stdio-server.js';
export type { StdioServerTransportOptions } from '../transport/stdio/stdio-server.js';
export { createHttpHandler } from './http/node-handler.js';
export type { McpHttpHandler } from './http/node-handler.js';
export { skillsFromDirectory } from './skills/from-directory.js';
export type { SkillsFromDirectoryOptions } from './skills/from-directory.js';

// A given SKILL.md's frontmatter is read with `yaml`, kept out of the neutral build (skills/yaml-reader.ts).
setSkillYamlReader(() => import('yaml'));
