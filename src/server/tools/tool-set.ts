/**
 * The tools a server offers: registration (with both schemas compiled once), listing in
 * registration order with cursor pagination, and change listeners for `list_changed`.
 */
import { McpError } from '../../protocol/errors.js';
import type { Disposer } from '../../protocol/transport.js';
import type { Tool } from '../../protocol/types.js';
import { compileSchema, type SchemaCheck } from '../schema-validator.js';
import { base64urlFromText, textFromBase64url } from '../../util/base64url.js';
import type { ToolDefinition } from '../server-types.js';

/** A registered tool: its definition, its wire form and its compiled schemas. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly wire: Tool;
  readonly checkInput: SchemaCheck;
  readonly checkOutput: SchemaCheck | undefined;
}

/** Tool names the spec recommends (2025-11-25): 1–128 of A–Z a–z 0–9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class ToolSet {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<() => void>();

  /**
   * Adds a tool. Throws `INVALID_ARGUMENT` for a bad name, a name already taken, an
   * `inputSchema` that is not an object schema, a `$schema` of a dialect other than draft-07,
   * 2019-09 or 2020-12, or a schema that is not valid in its dialect. The disposer
   * removes exactly this registration (harmless twice, or after a re-registration of the name).
   */
  add(definition: ToolDefinition): Disposer {
    const { name } = definition;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      throw new McpError(
        'INVALID_ARGUMENT',
        `tool name ${JSON.stringify(name)} must be 1–128 characters of A–Z, a–z, 0–9, "_", "-" or "."`,
      );
    if (this.tools.has(name)) throw new McpError('INVALID_ARGUMENT', `tool "${name}" is already registered`);
    if (typeof definition.handler !== 'function')
      throw new McpError('INVALID_ARGUMENT', `tool "${name}" has no handler`);
    const input = definition.inputSchema;
    if (!input || typeof input !== 'object' || (input.type !== 'object' && definition.checkSchemas !== false))
      throw new McpError(
        'INVALID_ARGUMENT',
        `tool "${name}" inputSchema must be an object schema ({ "type": "object", … })`,
      );
    const checked = definition.checkSchemas !== false;
    const registered: RegisteredTool = {
      definition: definition,
      wire: wireTool(definition),
      checkInput: checked ? compileSchema(input, `tool "${name}" inputSchema`) : acceptAll,
      checkOutput:
        checked && definition.outputSchema
          ? compileSchema(definition.outputSchema, `tool "${name}" outputSchema`)
          : undefined,
    };
    this.tools.set(name, registered);
    this.changed();
    return () => {
      if (this.tools.get(name) !== registered) return;
      this.tools.delete(name);
      this.changed();
    };
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  get size(): number {
    return this.tools.size;
  }

  /** True when a registered tool can run as a task (its `taskSupport` is `optional` or `required`). */
  get anyTaskSupport(): boolean {
    for (const tool of this.tools.values())
      if (tool.wire.execution?.taskSupport === 'optional' || tool.wire.execution?.taskSupport === 'required')
        return true;
    return false;
  }

  /**
   * One page of tools in registration order, of those `visible` keeps (all when absent). The
   * cursor is opaque to clients (the offset of the next page among the kept ones); a cursor this
   * set did not make throws `INVALID_ARGUMENT` (→ -32602).
   */
  page(cursor: unknown, pageSize: number, visible?: (tool: Tool) => boolean): { tools: Tool[]; nextCursor?: string } {
    const wires = [...this.tools.values()].map((t) => t.wire);
    const all = visible ? wires.filter(visible) : wires;
    let start = 0;
    if (cursor !== undefined) {
      start = typeof cursor === 'string' ? decodeCursor(cursor) : -1;
      if (start < 0 || start > all.length) throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
    }
    const end = start + pageSize;
    return end < all.length
      ? { tools: all.slice(start, end), nextCursor: encodeCursor(end) }
      : { tools: all.slice(start) };
  }

  /** Listeners of additions and removals registered now. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Registers a listener of additions and removals. Returns a disposer. */
  onChange(listener: () => void): Disposer {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // One session's failure to notify must not break registration.
      }
    }
  }
}

/** The check of a tool registered with `checkSchemas: false`: its server checks for itself. */
const acceptAll: SchemaCheck = () => [];

function wireTool(definition: ToolDefinition): Tool {
  const tool: Tool = { name: definition.name, inputSchema: definition.inputSchema };
  if (definition.title !== undefined) tool.title = definition.title;
  if (definition.description !== undefined) tool.description = definition.description;
  if (definition.outputSchema !== undefined) tool.outputSchema = definition.outputSchema;
  if (definition.annotations !== undefined) tool.annotations = definition.annotations;
  if (definition._meta !== undefined) tool._meta = definition._meta;
  if (definition.taskSupport !== undefined && definition.taskSupport !== 'forbidden')
    tool.execution = { taskSupport: definition.taskSupport };
  return tool;
}

function encodeCursor(offset: number): string {
  return base64urlFromText(`o:${offset}`);
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(textFromBase64url(cursor) ?? '');
  return match ? Number(match[1]) : -1;
}
