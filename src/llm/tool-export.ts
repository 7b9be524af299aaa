/**
 * The manager's catalogue of tools in the request shapes of the LLM APIs: OpenAI function tools,
 * Anthropic tools, Gemini function declarations. Names are taken as they are (the catalogue's
 * exposed names are already provider-safe); each `inputSchema` goes through {@link cleanSchema}
 * for the chosen profile. App-only tools (`_meta.ui.visibility` without `model`, MCP Apps) are
 * never exported, whatever list they come in: a host MUST NOT offer them to a model. Pure: the
 * catalogue entries are not touched.
 */
import { isModelVisible } from '../protocol/extensions/apps-types.js';
import type { Tool } from '../protocol/types.js';
import { cleanSchema, type SchemaChange, type SchemaProfile } from './schema-profiles.js';

/** What an export reads from a catalogue entry (`manager.getAllTools()` entries fit). */
export interface ExportableTool {
  /** The exposed, provider-safe name. */
  name: string;
  definition: Tool;
}

/** Export options. */
export interface ToolExportOptions {
  /** Whose schema rules to apply; defaults to the target API's own profile. */
  profile?: SchemaProfile;
}

/** The schema edits made for one tool; only tools with at least one edit are listed. */
export interface ToolSchemaChanges {
  name: string;
  changes: SchemaChange[];
}

export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Absent for a tool without parameters (Gemini rejects an OBJECT whose properties are empty). */
  parameters?: Record<string, unknown>;
}

/** Tools for OpenAI's `tools` request field (Chat Completions, non-strict function calling). */
export function toOpenAITools(
  tools: readonly ExportableTool[],
  options: ToolExportOptions = {},
): { tools: OpenAIFunctionTool[]; changes: ToolSchemaChanges[] } {
  const { entries, changes } = exportEach(tools, options.profile ?? 'openai');
  return {
    tools: entries.map(({ name, description, schema }) => ({
      type: 'function',
      function: { name, ...describe(description), parameters: schema },
    })),
    changes,
  };
}

/** Tools for Anthropic's Messages API `tools` request field. */
export function toAnthropicTools(
  tools: readonly ExportableTool[],
  options: ToolExportOptions = {},
): { tools: AnthropicTool[]; changes: ToolSchemaChanges[] } {
  const { entries, changes } = exportEach(tools, options.profile ?? 'anthropic');
  return {
    tools: entries.map(({ name, description, schema }) => ({ name, ...describe(description), input_schema: schema })),
    changes,
  };
}

/**
 * Declarations for Gemini's `tools: [{ functionDeclarations }]`. `parameters` is left out when
 * the cleaned schema has no properties: Google documents that a function without parameters
 * leaves it unset, and some models reject `properties: {}` ("should be non-empty for OBJECT type").
 */
export function toGeminiFunctionDeclarations(
  tools: readonly ExportableTool[],
  options: ToolExportOptions = {},
): { functionDeclarations: GeminiFunctionDeclaration[]; changes: ToolSchemaChanges[] } {
  const { entries, changes } = exportEach(tools, options.profile ?? 'gemini');
  return {
    functionDeclarations: entries.map(({ name, description, schema }) => {
      const properties = schema.properties;
      const empty = typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0;
      return { name, ...describe(description), ...(empty ? {} : { parameters: schema }) };
    }),
    changes,
  };
}

/**
 * The text a model reads about a tool: its `description`, else its `title`, else its
 * annotations' title; nothing else is added. Undefined when none is a non-blank string.
 */
export function toolDescription(definition: Tool): string | undefined {
  for (const candidate of [definition.description, definition.title, definition.annotations?.title]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  return undefined;
}

function describe(description: string | undefined): { description?: string } {
  return description === undefined ? {} : { description };
}

function exportEach(tools: readonly ExportableTool[], profile: SchemaProfile) {
  const changes: ToolSchemaChanges[] = [];
  const entries = tools
    .filter(({ definition }) => isModelVisible(definition))
    .map(({ name, definition }) => {
      const cleaned = cleanSchema(definition.inputSchema, profile);
      if (cleaned.changes.length > 0) changes.push({ name, changes: cleaned.changes });
      return { name, description: toolDescription(definition), schema: cleaned.schema };
    });
  return { entries, changes };
}
