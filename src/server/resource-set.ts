/**
 * Resources and resource templates a server offers: registration (disposers), listing in
 * registration order, reading by URI (a resource first, then the first template that matches),
 * and completion of template variables.
 */
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import type { Resource, ResourceContents, ResourceTemplate } from '../protocol/types.js';
import { ChangeListeners, pageOf } from './change-listeners.js';
import type { CompleteHandler, RequestContext } from './server-types.js';

/** A resource as registered with `McpServer.registerResource`. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
  /** Whether it is in `resources/list` (default true); an unlisted resource is still read by its URI. */
  listed?: boolean;
  /**
   * The contents of the resource (text or base64 blob). Throw `ResourceNotFoundError` when it is
   * gone (the client gets the not-found error an unknown URI gets); any other throw is an
   * internal error (-32603, logged).
   */
  read: (uri: string, context: RequestContext) => ResourceContents[] | Promise<ResourceContents[]>;
}

/** A resource template (RFC 6570 level 1: `{name}` variables) as registered with `registerResourceTemplate`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
  /**
   * The contents of one URI the template matched, with its variables. Throw
   * `ResourceNotFoundError` (from `mcpwire/server`) when nothing is at that URI: the client gets
   * -32002 "Resource not found" (2026-07-28: -32602) with `data: { uri }`, as for a URI no
   * template matches; returning `[]` sends empty contents (a resource that exists and is empty).
   * Any other throw is an internal error (-32603, logged).
   */
  read: (
    uri: string,
    variables: Record<string, string>,
    context: RequestContext,
  ) => ResourceContents[] | Promise<ResourceContents[]>;
  /** Completion of a variable's value (`completion/complete` with `ref/resource`). */
  complete?: Record<string, CompleteHandler>;
  /**
   * Matches a URI itself instead of the kit's level-1 matching of `uriTemplate` (for templates of
   * higher levels, or a server forwarding reads it cannot match: a gateway): the variables of a
   * URI it takes, `undefined` for one it does not. With it, `uriTemplate` needs no `{variable}`.
   */
  match?: (uri: string) => Record<string, string> | undefined;
  /** Whether it is in `resources/templates/list` (default true); an unlisted one still reads what it matches. */
  listed?: boolean;
}

interface RegisteredTemplate {
  definition: ResourceTemplateDefinition;
  wire: ResourceTemplate;
  /** The variables of a URI the template matches, `undefined` for another. */
  match: (uri: string) => Record<string, string> | undefined;
}

export class ResourceSet {
  private readonly resources = new Map<string, { definition: ResourceDefinition; wire: Resource }>();
  private readonly templates = new Map<string, RegisteredTemplate>();
  readonly changes = new ChangeListeners();

  get size(): number {
    return this.resources.size + this.templates.size;
  }

  /** Throws `INVALID_ARGUMENT` for a URI already registered or a missing `read`. */
  add(definition: ResourceDefinition): Disposer {
    if (typeof definition.uri !== 'string' || definition.uri === '' || typeof definition.name !== 'string')
      throw new McpError('INVALID_ARGUMENT', 'a resource needs a "uri" and a "name"');
    if (this.resources.has(definition.uri))
      throw new McpError('INVALID_ARGUMENT', `resource "${definition.uri}" is already registered`);
    if (typeof definition.read !== 'function')
      throw new McpError('INVALID_ARGUMENT', `resource "${definition.uri}" has no read function`);
    const { read: _read, listed: _listed, ...wire } = definition;
    const entry = { definition, wire: wire as Resource };
    this.resources.set(definition.uri, entry);
    this.changes.emit();
    return () => {
      if (this.resources.get(definition.uri) !== entry) return;
      this.resources.delete(definition.uri);
      this.changes.emit();
    };
  }

  /** Throws `INVALID_ARGUMENT` for a template already registered, or one with no variable. */
  addTemplate(definition: ResourceTemplateDefinition): Disposer {
    const { uriTemplate } = definition;
    if (typeof uriTemplate !== 'string' || typeof definition.name !== 'string')
      throw new McpError('INVALID_ARGUMENT', 'a resource template needs a "uriTemplate" and a "name"');
    if (this.templates.has(uriTemplate))
      throw new McpError('INVALID_ARGUMENT', `resource template "${uriTemplate}" is already registered`);
    const { read: _read, complete: _complete, match, listed: _listed, ...wire } = definition;
    const entry: RegisteredTemplate = {
      definition,
      wire: wire,
      match: match ?? levelOneMatcher(uriTemplate),
    };
    this.templates.set(uriTemplate, entry);
    this.changes.emit();
    return () => {
      if (this.templates.get(uriTemplate) !== entry) return;
      this.templates.delete(uriTemplate);
      this.changes.emit();
    };
  }

  /** One page of the listed resources whose URI `visible` keeps (all when absent). */
  page(
    cursor: unknown,
    pageSize: number,
    visible?: (uri: string) => boolean,
  ): { resources: Resource[]; nextCursor?: string } {
    const { items, nextCursor } = pageOf(
      [...this.resources.values()]
        .filter((r) => r.definition.listed !== false && (!visible || visible(r.wire.uri)))
        .map((r) => r.wire),
      cursor,
      pageSize,
      invalidCursor,
    );
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** One page of the listed templates whose URI template `visible` keeps (all when absent). */
  templatePage(
    cursor: unknown,
    pageSize: number,
    visible?: (uriTemplate: string) => boolean,
  ): { resourceTemplates: ResourceTemplate[]; nextCursor?: string } {
    const { items, nextCursor } = pageOf(
      [...this.templates.values()]
        .filter((t) => t.definition.listed !== false && (!visible || visible(t.wire.uriTemplate)))
        .map((t) => t.wire),
      cursor,
      pageSize,
      invalidCursor,
    );
    return nextCursor === undefined ? { resourceTemplates: items } : { resourceTemplates: items, nextCursor };
  }

  /** The contents of `uri`, or undefined when no resource or template has it. */
  async read(uri: string, context: RequestContext): Promise<ResourceContents[] | undefined> {
    const direct = this.resources.get(uri);
    if (direct) return direct.definition.read(uri, context);
    for (const template of this.templates.values()) {
      const variables = template.match(uri);
      if (variables) return template.definition.read(uri, variables, context);
    }
    return undefined;
  }

  /** The completion handler of a template variable, if any. */
  completer(uriTemplate: string, variable: string): CompleteHandler | undefined {
    return this.templates.get(uriTemplate)?.definition.complete?.[variable];
  }
}

function invalidCursor(): never {
  throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
}

/** The matcher of a level-1 template (`{name}` variables, each one path segment); `INVALID_ARGUMENT` without one. */
function levelOneMatcher(uriTemplate: string): (uri: string) => Record<string, string> | undefined {
  const variables: string[] = [];
  const source = uriTemplate.split(/(\{[A-Za-z0-9_]+\})/).map((part) => {
    const variable = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
    if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    variables.push(variable[1]!);
    return '([^/?#]+)';
  });
  if (variables.length === 0)
    throw new McpError('INVALID_ARGUMENT', `resource template "${uriTemplate}" has no {variable}`);
  const pattern = new RegExp(`^${source.join('')}$`);
  return (uri) => {
    const found = pattern.exec(uri);
    return found
      ? Object.fromEntries(variables.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]))
      : undefined;
  };
}
