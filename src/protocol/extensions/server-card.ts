/**
 * MCP Server Cards and the MCP Catalog (SEP-2127, a draft: `experimental-ext-server-card`,
 * `schema.ts` and `docs/discovery.md`): the wire shapes, the fixed names (schema URL, media type,
 * paths), and the pure checks both roles share — what makes a card valid, and the catalog
 * identifier a card's name gives. A card is advisory: it describes a server before anyone
 * connects, and is never a ground for a security decision. Types and pure functions only.
 */
import type { Icon } from '../types.js';

/** The one `$schema` a card may name (the `/v2/` family). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';

/** The media type of a card (`Accept` of the request, `Content-Type` of the answer). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** Appended to a Streamable HTTP endpoint's URL: where a server hosts its own card. */
export const SERVER_CARD_SUFFIX = '/server-card';

/** The site-wide catalog of a domain's cards. */
export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';

/** Where earlier drafts put a card (the ecosystem still serves them): read as "legacy", never served. */
export const LEGACY_SERVER_CARD_PATHS: readonly string[] = Object.freeze([
  '/.well-known/mcp.json',
  '/.well-known/mcp-server-card',
]);

/** Where a card's source code lives. */
export interface ServerCardRepository {
  url: string;
  /** The hosting service (`github`). */
  source: string;
  subfolder?: string;
  id?: string;
}

/** One input of a remote (a URL variable or a header), as the card describes it. */
export interface ServerCardInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  default?: string;
  placeholder?: string;
  value?: string;
  choices?: string[];
}

/** A header a remote needs or accepts. */
export interface ServerCardHeader extends ServerCardInput {
  name: string;
  variables?: Record<string, ServerCardInput>;
}

/** One HTTP endpoint of the server. */
export interface ServerCardRemote {
  type: 'streamable-http' | 'sse';
  /** `http(s)://…`, or a template starting with `{variable}`. */
  url: string;
  headers?: ServerCardHeader[];
  variables?: Record<string, ServerCardInput>;
  supportedProtocolVersions?: string[];
}

/** An MCP Server Card. */
export interface ServerCard {
  /** {@link SERVER_CARD_SCHEMA}. */
  $schema: string;
  /** Reverse-DNS, one slash: `com.example/weather`. */
  name: string;
  /** No ranges (`^1.2`, `1.x`). */
  version: string;
  /** 1–100 characters. */
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: ServerCardRepository;
  icons?: Icon[];
  remotes?: ServerCardRemote[];
  _meta?: Record<string, unknown>;
}

/** One entry of an {@link McpCatalog}. */
export interface McpCatalogEntry {
  /** `urn:air:{domain}:{name}` ({@link catalogIdentifier}). */
  identifier: string;
  displayName: string;
  /** {@link SERVER_CARD_MEDIA_TYPE} (entries of another type are to be ignored). */
  type: string;
  /** Where the card is. */
  url: string;
}

/** A domain's MCP Catalog, at {@link MCP_CATALOG_PATH}. */
export interface McpCatalog {
  /** `draft`. */
  specVersion: string;
  entries: McpCatalogEntry[];
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const VERSION_RANGE = /^[\^~<>=]|(^|\.)[x*](\.|$)|\s-\s|\|\|/i;
const REMOTE_URL = /^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/;

/** Whether `name` is a card's reverse-DNS name (`com.example/weather`, 3–200 characters). */
export function isServerCardName(name: string): boolean {
  return name.length >= 3 && name.length <= 200 && NAME.test(name);
}

/**
 * The catalog identifier of a card named `name`: the namespace's labels in forward order as the
 * publisher's domain, then the name (`com.example/weather` ⇒ `urn:air:example.com:weather`).
 * Undefined for a name that is not reverse-DNS.
 */
export function catalogIdentifier(name: string): string | undefined {
  if (!isServerCardName(name)) return undefined;
  const [namespace, suffix] = name.split('/') as [string, string];
  return `urn:air:${namespace.split('.').reverse().join('.')}:${suffix}`;
}

/**
 * What is wrong with `value` as a card, one line each (empty: valid): the required members and
 * their shapes, the optional ones when present. Unknown members are not problems.
 */
export function serverCardProblems(value: unknown): string[] {
  if (!isObject(value)) return ['the card is not a JSON object'];
  const problems: string[] = [];
  if (value.$schema !== SERVER_CARD_SCHEMA)
    problems.push(`"$schema" is ${shown(value.$schema)}, not ${SERVER_CARD_SCHEMA}`);
  if (typeof value.name !== 'string') problems.push('"name" is missing or not a string');
  else if (!isServerCardName(value.name))
    problems.push(`"name" ${shown(value.name)} is not reverse-DNS with one slash (com.example/weather)`);
  if (typeof value.version !== 'string' || value.version === '') problems.push('"version" is missing or not a string');
  else if (value.version.length > 255) problems.push('"version" is longer than 255 characters');
  else if (VERSION_RANGE.test(value.version)) problems.push(`"version" ${shown(value.version)} is a range`);
  lengthProblem(problems, value, 'description', true);
  lengthProblem(problems, value, 'title', false);
  if (value.websiteUrl !== undefined && !isUrl(value.websiteUrl)) problems.push('"websiteUrl" is not a URL');
  if (value.repository !== undefined) {
    const repo = value.repository;
    if (!isObject(repo) || !isUrl(repo.url) || typeof repo.source !== 'string')
      problems.push('"repository" needs a "url" and a "source"');
  }
  if (value.icons !== undefined) {
    if (!Array.isArray(value.icons)) problems.push('"icons" is not an array');
    else
      value.icons.forEach((icon: unknown, i) => {
        if (!isObject(icon) || typeof icon.src !== 'string') problems.push(`icons[${i}] has no "src"`);
      });
  }
  if (value.remotes !== undefined) {
    if (!Array.isArray(value.remotes)) problems.push('"remotes" is not an array');
    else value.remotes.forEach((remote: unknown, i) => remoteProblems(problems, remote, i));
  }
  if (value._meta !== undefined && !isObject(value._meta)) problems.push('"_meta" is not an object');
  return problems;
}

/** What is wrong with `value` as a catalog (empty: valid); entries of another `type` are not problems. */
export function mcpCatalogProblems(value: unknown): string[] {
  if (!isObject(value)) return ['the catalog is not a JSON object'];
  const problems: string[] = [];
  if (typeof value.specVersion !== 'string') problems.push('"specVersion" is missing or not a string');
  if (!Array.isArray(value.entries)) return [...problems, '"entries" is missing or not an array'];
  value.entries.forEach((entry: unknown, i) => {
    if (!isObject(entry)) return problems.push(`entries[${i}] is not an object`);
    for (const key of ['identifier', 'displayName', 'type', 'url'])
      if (typeof entry[key] !== 'string') problems.push(`entries[${i}] has no string "${key}"`);
    return undefined;
  });
  return problems;
}

function remoteProblems(problems: string[], remote: unknown, i: number): void {
  if (!isObject(remote)) {
    problems.push(`remotes[${i}] is not an object`);
    return;
  }
  if (remote.type !== 'streamable-http' && remote.type !== 'sse')
    problems.push(`remotes[${i}].type is ${shown(remote.type)}, not "streamable-http" or "sse"`);
  if (typeof remote.url !== 'string' || !REMOTE_URL.test(remote.url))
    problems.push(`remotes[${i}].url is not an http(s) URL or a {variable} template`);
  const versions = remote.supportedProtocolVersions;
  if (versions !== undefined && (!Array.isArray(versions) || versions.some((v) => typeof v !== 'string')))
    problems.push(`remotes[${i}].supportedProtocolVersions is not a list of strings`);
  if (remote.headers !== undefined && !Array.isArray(remote.headers))
    problems.push(`remotes[${i}].headers is not an array`);
}

function lengthProblem(problems: string[], card: Record<string, unknown>, key: string, required: boolean): void {
  const value = card[key];
  if (value === undefined) {
    if (required) problems.push(`"${key}" is missing`);
  } else if (typeof value !== 'string') problems.push(`"${key}" is not a string`);
  else if (value.length < 1 || value.length > 100) problems.push(`"${key}" is not 1–100 characters long`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** A value for a problem line, bounded. */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
