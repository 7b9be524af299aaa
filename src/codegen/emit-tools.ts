/**
 * `emitToolsModule`: the TypeScript module `mcpwire emit-ts` writes for a server's tools: an
 * input type per tool (from its `inputSchema`), an output type per tool that declares an
 * `outputSchema`, the `TypedTools` interface and `typedTools(client)`, a typed wrapper over
 * `McpClient.callTool`. The module imports `mcpwire` and `mcpwire/types` only.
 */
import type { Implementation, Tool } from '../protocol/types.js';
import { formatModule, schemaTypes, type NamedSchema } from './schema-types.js';
import { docLines, propertyKey, toolTypeNames } from './type-names.js';

/** What the module is generated from. */
export interface EmitSource {
  /** The server's tools, as `tools/list` gave them. */
  tools: readonly Tool[];
  /** The server's display name (its config name, or its command line or host). */
  server: string;
  /** What the server said it is. */
  serverInfo?: Implementation | undefined;
}

/** The module's text, and what could not be typed exactly (per tool, why). */
export interface EmittedModule {
  code: string;
  warnings: string[];
}

/**
 * The module for `source`. Every tool gets a method on `TypedTools`, named as the server names it
 * (quoted when it is not an identifier); the same tool listed twice is emitted once. Rejects
 * only on a generator failure that no fallback covers (see `schemaTypes`).
 */
export async function emitToolsModule(source: EmitSource): Promise<EmittedModule> {
  const seen = new Set<string>();
  const tools = source.tools.filter((t) => typeof t.name === 'string' && !seen.has(t.name) && seen.add(t.name));
  const names = toolTypeNames(tools.map((t) => t.name));
  const schemas: NamedSchema[] = [];
  for (const tool of tools) {
    const { input, output } = names.get(tool.name)!;
    schemas.push({ name: input, schema: tool.inputSchema });
    if (tool.outputSchema) schemas.push({ name: output, schema: tool.outputSchema });
  }
  const types = await schemaTypes(schemas);
  const owner = new Map(
    tools.flatMap((t) => [
      [names.get(t.name)!.input, t.name],
      [names.get(t.name)!.output, t.name],
    ]),
  );
  const warnings = types.notes.map((n) => `tool "${owner.get(n.name) ?? n.name}" (${n.name}): ${n.message}`);
  const methods = tools.map((tool) => {
    const { input, output } = names.get(tool.name)!;
    const optional = requiredCount(tool.inputSchema) === 0;
    return {
      key: propertyKey(tool.name),
      // In an object literal a plain `__proto__` key sets the prototype: that one is computed.
      field: tool.name === '__proto__' ? '["__proto__"]' : propertyKey(tool.name),
      name: JSON.stringify(tool.name),
      args: `args${optional ? '?' : ''}: ${input}`,
      result: tool.outputSchema ? output : 'CallToolResult',
      structured: tool.outputSchema !== undefined,
      doc: toolDoc(tool, tool.outputSchema ? output : undefined),
    };
  });
  const code = [
    header(source),
    // Only what the module uses: it must compile under noUnusedLocals too.
    ...(methods.length > 0
      ? [
          "import { McpError, type CallOptions, type McpClient } from 'mcpwire';",
          "import type { CallToolResult } from 'mcpwire/types';",
        ]
      : ["import type { McpClient } from 'mcpwire';"]),
    '',
    types.code,
    '',
    '/** The tools of this server, as typed methods. */',
    'export interface TypedTools {',
    ...methods.flatMap((m) => [...m.doc, `  ${m.key}(${m.args}, options?: CallOptions): Promise<${m.result}>;`]),
    '}',
    '',
    ...FACTORY_DOC,
    `export function typedTools(${methods.length > 0 ? 'client' : '_client'}: McpClient): TypedTools {`,
    '  return {',
    ...methods.map(
      (m) =>
        `    ${m.field}: (args, options) => ${m.structured ? `structured<${m.result}>` : 'call'}(client, ${m.name}, args, options),`,
    ),
    '  };',
    '}',
    '',
    ...(methods.length > 0 ? [CALL] : []),
    ...(methods.some((m) => m.structured) ? ['', STRUCTURED] : []),
  ].join('\n');
  return { code: await formatModule(code), warnings };
}

function requiredCount(schema: Tool['inputSchema'] | undefined): number {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? required.length : 0;
}

function toolDoc(tool: Tool, output: string | undefined): string[] {
  const title = typeof tool.title === 'string' && tool.title !== tool.name ? `${tool.title}: ` : '';
  const text = `${title}${typeof tool.description === 'string' ? tool.description : ''}`.trim();
  const resolves = output
    ? `Resolves with its structuredContent (${output}, checked against its outputSchema).`
    : 'Resolves with its CallToolResult.';
  return ['  /**', ...(text ? [...docLines(text, '  '), '   *'] : []), `   * ${resolves}`, '   */'];
}

function header(source: EmitSource): string {
  const info = source.serverInfo;
  const server = info ? `${info.name}${info.version ? ` ${info.version}` : ''}` : source.server;
  return [
    '/* eslint-disable */',
    '/**',
    ...docLines(
      `Typed tools of the MCP server ${JSON.stringify(source.server)} (${server}), written by mcpwire emit-ts.`,
    ),
    ' * Regenerate it rather than editing it by hand.',
    ' *',
    ' * `typedTools(client)` wraps `client.callTool(name, args, options)`. A tool that declares an',
    ' * outputSchema resolves with its `structuredContent`, typed and checked against that schema by',
    ' * McpClient (unless the client was made with `validateOutput: false`); any other tool resolves',
    ' * with its whole CallToolResult. A tool result with `isError: true` rejects with an McpError',
    ' * whose `code` is `TOOL_ERROR` and whose `data` is that CallToolResult; a call that fails',
    ' * otherwise rejects as `callTool` does (`TIMEOUT`, `CANCELLED`, `OUTPUT_SCHEMA_MISMATCH`, ...).',
    ' */',
  ].join('\n');
}

const FACTORY_DOC = [
  '/**',
  ' * The typed tools of `client`, a connected McpClient of this server. Each method calls the tool',
  " * of its name; `options` are `callTool`'s (signal, timeout, progress).",
  ' */',
];

const CALL = `async function call(
  client: McpClient,
  name: string,
  args: object | undefined,
  options: CallOptions | undefined,
): Promise<CallToolResult> {
  // No arguments are sent as {}: some servers refuse a call without them.
  const result = await client.callTool(name, (args ?? {}) as Record<string, unknown>, options);
  if (result.isError) {
    const text = (result.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(' ');
    throw new McpError('TOOL_ERROR', \`tool "\${name}" reported an error: \${text.slice(0, 300) || '(no text)'}\`, {
      server: client.name,
      method: 'tools/call',
      data: result,
    });
  }
  return result;
}`;

const STRUCTURED = `async function structured<T>(
  client: McpClient,
  name: string,
  args: object | undefined,
  options: CallOptions | undefined,
): Promise<T> {
  const result = await call(client, name, args, options);
  if (result.structuredContent === undefined)
    throw new McpError('PROTOCOL', \`tool "\${name}" declares an outputSchema but returned no structuredContent\`, {
      server: client.name,
      method: 'tools/call',
      data: result,
    });
  return result.structuredContent as T;
}`;
