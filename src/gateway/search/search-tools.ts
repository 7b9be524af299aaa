/**
 * The two tools the gateway serves in `mode: 'search'` (WP-7), as plain data, and the pure
 * helpers behind them: `search_tools` finds tools in the catalogue ({@link searchResult}),
 * `call_tool` calls one by name ({@link parseCallToolArgs} reads its arguments; the gateway
 * routes the call). Nothing here registers, routes or applies policy: the gateway does.
 */
import { McpError } from '../../protocol/errors.js';
import type { CallToolResult, JsonSchema, Tool } from '../../protocol/types.js';
import type { ToolSearchIndex } from './tool-index.js';

/** The most tools one `search_tools` call returns (the schema's `limit` maximum). */
export const SEARCH_LIMIT_MAX = 50;
/** How many tools `search_tools` returns when no `limit` is given. */
export const SEARCH_LIMIT_DEFAULT = 10;
/** The longest `query` accepted: a few words are what it is for; the cap bounds the work one call can ask for. */
const QUERY_MAX_CHARS = 500;

/** `search_tools`: a ranked search over the catalogue, read-only. */
export const SEARCH_TOOLS: Tool = {
  name: 'search_tools',
  title: 'Search tools',
  description:
    'Find the tools you need among those of every connected server. Only search_tools and call_tool ' +
    'are listed here; every other tool is found through this search. Describe the task in a few words ' +
    '("create a github issue", "read a file", "run a sql query") or give a tool\'s exact name. You get ' +
    'the best matches first, each with its description and full input schema; then call the one you ' +
    'chose with call_tool.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: QUERY_MAX_CHARS,
        pattern: '\\S',
        description: 'What you want to do, in a few words, or a tool name.',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        default: SEARCH_LIMIT_DEFAULT,
        description: `At most this many tools (default ${SEARCH_LIMIT_DEFAULT}).`,
      },
      server: { type: 'string', description: 'Only the tools of the server with this name.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      tools: {
        type: 'array',
        description: 'The matches, best first.',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            inputSchema: { type: 'object' },
          },
          required: ['name', 'inputSchema'],
        },
      },
    },
    required: ['tools'],
  },
  annotations: {
    title: 'Search tools',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/** `call_tool`: calls any tool of the catalogue, so no hint promises it is harmless. */
export const CALL_TOOL: Tool = {
  name: 'call_tool',
  title: 'Call a tool',
  description:
    'Call a tool that search_tools found, by its exact name, with arguments that match its input ' +
    "schema. The result is that tool's own result. If you do not know the tool's name and input " +
    'schema yet, call search_tools first.',
  inputSchema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        description: 'The exact name search_tools gave, such as github__create_issue.',
      },
      arguments: {
        type: 'object',
        additionalProperties: true,
        description: "The tool's arguments, matching its inputSchema.",
      },
    },
    required: ['name'],
    additionalProperties: false,
  },
  annotations: { title: 'Call a tool', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
};

/** The arguments of `search_tools`, checked. */
export interface SearchToolsArgs {
  query: string;
  limit?: number;
  server?: string;
}

/** The arguments of `call_tool`, checked. */
export interface CallToolArgs {
  name: string;
  arguments?: Record<string, unknown>;
}

/** One match in `search_tools`' `structuredContent`. */
export interface FoundTool {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/**
 * Reads `search_tools` arguments. Throws `INVALID_ARGUMENT` (the kit's schema check refuses the
 * same values first) when they are not an object, `query` is not a string with a non-space
 * character and at most 500 code points, `limit` is not an integer in 1..{@link SEARCH_LIMIT_MAX},
 * or `server` is not a string.
 */
export function parseSearchToolsArgs(args: unknown): SearchToolsArgs {
  if (!isRecord(args)) throw invalid('search_tools needs an object of arguments');
  const { query, limit, server } = args;
  if (typeof query !== 'string' || query.trim() === '' || tooLong(query, QUERY_MAX_CHARS)) {
    throw invalid(`"query" must be a non-empty string of at most ${QUERY_MAX_CHARS} characters`);
  }
  if (
    limit !== undefined &&
    !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= SEARCH_LIMIT_MAX)
  ) {
    throw invalid(`"limit" must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
  }
  if (server !== undefined && typeof server !== 'string') throw invalid('"server" must be a string');
  return {
    query,
    ...(limit === undefined ? {} : { limit }),
    ...(server === undefined ? {} : { server }),
  };
}

/**
 * Reads `call_tool` arguments. Throws `INVALID_ARGUMENT` when they are not an object, `name` is
 * not a non-empty string, or `arguments` is present and not an object.
 */
export function parseCallToolArgs(args: unknown): CallToolArgs {
  if (!isRecord(args)) throw invalid('call_tool needs an object of arguments');
  const { name, arguments: toolArgs } = args;
  if (typeof name !== 'string' || name === '') throw invalid('"name" must be a non-empty string');
  if (toolArgs !== undefined && !isRecord(toolArgs)) throw invalid('"arguments" must be an object');
  return toolArgs === undefined ? { name } : { name, arguments: toolArgs };
}

/**
 * The result of one `search_tools` call: the matches of `index` for `args`, best first, as a
 * short text a model can read (each tool's name, the first line of its description, its
 * parameters with the required ones named first) and as `structuredContent: { tools }` with each
 * tool's full `inputSchema`, so the model can call it next. `tools` is the catalogue the index
 * was built from, by served name; a hit missing from it (a stale index) is left out. No match is
 * a result too (an empty list and a text that says so), never an error. Throws `INVALID_ARGUMENT`
 * as {@link parseSearchToolsArgs} does.
 */
export function searchResult(
  index: ToolSearchIndex,
  tools: ReadonlyMap<string, Tool> | readonly Tool[],
  args: unknown,
): CallToolResult {
  const { query, limit = SEARCH_LIMIT_DEFAULT, server } = parseSearchToolsArgs(args);
  const byName = isToolList(tools) ? new Map(tools.map((tool) => [tool.name, tool])) : tools;
  const found: FoundTool[] = [];
  for (const hit of index.search(query, server === undefined ? { limit } : { limit, server })) {
    const tool = byName.get(hit.name);
    if (tool === undefined) continue;
    found.push(
      typeof tool.description === 'string'
        ? { name: tool.name, description: tool.description, inputSchema: tool.inputSchema }
        : { name: tool.name, inputSchema: tool.inputSchema },
    );
  }
  return { content: [{ type: 'text', text: describe(query, server, found) }], structuredContent: { tools: found } };
}

/** A query as the text quotes it: JSON-quoted and at most this long. */
const QUOTED_QUERY_CHARS = 100;
/** A description's first line as the text shows it, at most this long. */
const SUMMARY_CHARS = 160;
/** At most this many optional parameters are named per tool in the text. */
const OPTIONAL_NAMED = 8;

function describe(query: string, server: string | undefined, found: readonly FoundTool[]): string {
  const asked = JSON.stringify(clip(query.trim(), QUOTED_QUERY_CHARS));
  const where = server === undefined ? '' : ` on server ${JSON.stringify(server)}`;
  if (found.length === 0) {
    return `No tools match ${asked}${where}. Try other words, fewer words, or no server filter.`;
  }
  const lines = [
    `${found.length} ${found.length === 1 ? 'tool matches' : 'tools match'} ${asked}${where}, best first:`,
  ];
  for (const tool of found) {
    const summary = firstLine(tool.description);
    lines.push(`- ${tool.name}${summary === '' ? '' : `: ${summary}`}${parameters(tool.inputSchema)}`);
  }
  lines.push(
    'Call one with call_tool { "name": "<name>", "arguments": { … } }; structuredContent holds each full inputSchema.',
  );
  return lines.join('\n');
}

/** ` (required: a, b; optional: c, d)`, or '' for a tool without parameters. */
function parameters(schema: unknown): string {
  if (!isRecord(schema) || !isRecord(schema.properties)) return '';
  const names = Object.keys(schema.properties);
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string' && names.includes(name))
    : [];
  const optional = names.filter((name) => !required.includes(name));
  const parts: string[] = [];
  if (required.length > 0) parts.push(`required: ${required.join(', ')}`);
  if (optional.length > 0) {
    const more = optional.length > OPTIONAL_NAMED ? `, +${optional.length - OPTIONAL_NAMED} more` : '';
    parts.push(`optional: ${optional.slice(0, OPTIONAL_NAMED).join(', ')}${more}`);
  }
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

function firstLine(description: string | undefined): string {
  const line = (description ?? '').split(/\r?\n/).find((text) => text.trim() !== '') ?? '';
  return clip(line.trim(), SUMMARY_CHARS);
}

/** More than `max` code points, as JSON Schema's `maxLength` counts (an emoji is one, not two UTF-16 units). */
function tooLong(text: string, max: number): boolean {
  if (text.length <= max) return false;
  return text.length > 2 * max || [...text].length > max;
}

/** At most `max` UTF-16 units, an ellipsis marking a cut; never half of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

function isToolList(tools: ReadonlyMap<string, Tool> | readonly Tool[]): tools is readonly Tool[] {
  return Array.isArray(tools);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(reason: string): McpError {
  return new McpError('INVALID_ARGUMENT', reason);
}
