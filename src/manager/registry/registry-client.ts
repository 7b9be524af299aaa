/**
 * A reader of an MCP Registry's `/v0.1` API (the official one, or a sub-registry that serves the
 * same OpenAPI): search, a server's versions, one version. Reads are unauthenticated GETs; every
 * answer is bounded (`maxBytes`) and timed (`timeoutMs`), and each server in it is checked by
 * {@link readServerJson}. Errors are {@link McpError}s naming the registry's URL and, where one
 * is asked for, the server's name. Runtime-neutral: `fetch` and Web Streams only.
 */
import { HttpError, McpError } from '../../protocol/errors.js';
import { readServerJson, type ServerJson } from './server-json.js';
import { readBoundedBody } from '../../util/bounded-body.js';

/** The official registry; the one place its address is spelled. */
export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

/** The registry's own facts about one published version (`_meta["io.modelcontextprotocol.registry/official"]`). */
export interface RegistryEntry {
  server: ServerJson;
  /** `active`, `deprecated` or `deleted`; undefined when the registry says nothing. */
  status?: string;
  publishedAt?: string;
  updatedAt?: string;
  isLatest?: boolean;
}

/** A page of a search. */
export interface RegistryPage {
  servers: RegistryEntry[];
  /** Pass as `cursor` for the next page; undefined on the last one. */
  nextCursor?: string;
  /** Entries left out because they were not valid `server.json`s. */
  skipped: number;
}

export interface RegistryClientOptions {
  /** Default {@link DEFAULT_REGISTRY}. https, or http on a loopback address. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Per request; default 15000. */
  timeoutMs?: number;
  /** The largest answer read; default 4 MiB. */
  maxBytes?: number;
}

/** Per call. */
export interface RegistryCallOptions {
  signal?: AbortSignal;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/** See the file comment. Stateless: one instance may serve concurrent calls. */
export class RegistryClient {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  /** Throws `INVALID_ARGUMENT` for a base URL that is not https (or http on loopback). */
  constructor(options: RegistryClientOptions = {}) {
    this.baseUrl = registryBase(options.baseUrl ?? DEFAULT_REGISTRY);
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  }

  /**
   * Servers whose name contains `text` (the registry's substring search), latest versions only,
   * one page of at most `limit`.
   */
  async search(
    text: string,
    options: { limit?: number; cursor?: string } & RegistryCallOptions = {},
  ): Promise<RegistryPage> {
    const query = new URLSearchParams({ search: text, version: 'latest' });
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    const answer = await this.getJson(`/v0.1/servers?${query.toString()}`, undefined, options.signal);
    const page = this.list(answer, `/v0.1/servers`);
    const metadata = isObject(answer) && isObject(answer.metadata) ? answer.metadata : {};
    const next = metadata.nextCursor;
    return { ...page, ...(typeof next === 'string' && next !== '' ? { nextCursor: next } : {}) };
  }

  /** Every published version of `name`, newest first. Rejects `CONFIG_INVALID` when the registry has no such server. */
  async versions(name: string, options: RegistryCallOptions = {}): Promise<RegistryEntry[]> {
    const path = `/v0.1/servers/${encodeURIComponent(name)}/versions`;
    return this.list(await this.getJson(path, name, options.signal), path).servers;
  }

  /** One version of `name` (`latest` by default). Rejects `CONFIG_INVALID` when there is no such server or version. */
  async get(name: string, version = 'latest', options: RegistryCallOptions = {}): Promise<RegistryEntry> {
    const path = `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    const answer = await this.getJson(path, name, options.signal, version);
    return this.entry(answer, `${this.baseUrl}${path}`);
  }

  private list(answer: unknown, path: string): { servers: RegistryEntry[]; skipped: number } {
    const items = isObject(answer) ? answer.servers : undefined;
    if (!Array.isArray(items))
      throw new McpError('PROTOCOL', `registry ${this.baseUrl}: ${path} answered without a "servers" list`);
    const servers: RegistryEntry[] = [];
    let skipped = 0;
    for (const item of items) {
      try {
        servers.push(this.entry(item, `${this.baseUrl}${path}`));
      } catch (error) {
        if (!(error instanceof McpError) || error.code !== 'CONFIG_INVALID') throw error;
        skipped++;
      }
    }
    return { servers, skipped };
  }

  private entry(value: unknown, source: string): RegistryEntry {
    const server = readServerJson(isObject(value) ? value.server : undefined, source);
    const meta = isObject(value) && isObject(value._meta) ? value._meta[OFFICIAL] : undefined;
    const entry: RegistryEntry = { server };
    if (isObject(meta)) {
      for (const key of ['status', 'publishedAt', 'updatedAt'] as const)
        if (typeof meta[key] === 'string') entry[key] = meta[key];
      if (typeof meta.isLatest === 'boolean') entry.isLatest = meta.isLatest;
    }
    return entry;
  }

  /** GET `path` as JSON, bounded and timed. */
  private async getJson(
    path: string,
    name: string | undefined,
    signal?: AbortSignal,
    version?: string,
  ): Promise<unknown> {
    const url = `${this.baseUrl}${path}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const about =
      name === undefined ? '' : ` (server "${name}"${version && version !== 'latest' ? ` ${version}` : ''})`;
    const failed = (error: unknown): never => {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted)
        throw new McpError('TIMEOUT', `registry ${url}${about} did not answer within ${this.timeoutMs} ms`);
      throw error;
    };
    let response: Response;
    try {
      response = await this.fetch(url, { headers: { accept: 'application/json' }, signal: combined });
    } catch (error) {
      return failed(
        new HttpError('TRANSPORT', `registry ${url}${about} could not be reached: ${String(error)}`, {
          url,
          unreachable: true,
          cause: error,
        }),
      );
    }
    let text: string;
    try {
      text = await boundedText(response, this.maxBytes, url);
    } catch (error) {
      return failed(error);
    }
    if (response.status === 404 && name !== undefined)
      throw new McpError(
        'CONFIG_INVALID',
        `server "${name}"${version && version !== 'latest' ? ` version ${version}` : ''} is not in the registry ${this.baseUrl}`,
      );
    if (!response.ok)
      throw new HttpError('TRANSPORT', `registry ${url}${about} answered HTTP ${response.status}`, {
        url,
        status: response.status,
        body: text.slice(0, 300),
      });
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new McpError('PROTOCOL', `registry ${url}${about} answered with text that is not JSON`, { cause: error });
    }
  }
}

/** `url` without a trailing slash, checked: https, or http on a loopback address. */
export function registryBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpError('INVALID_ARGUMENT', `registry URL "${url}" is not a URL`);
  }
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback))
    throw new McpError('INVALID_ARGUMENT', `registry URL "${url}" must be https (http only on a loopback address)`);
  return parsed.href.replace(/\/+$/, '');
}

/** The body as text, refused once past `maxBytes` (the rest is not read). */
export async function boundedText(response: Response, maxBytes: number, url: string): Promise<string> {
  return new TextDecoder().decode(await boundedBytes(response, maxBytes, url));
}

/** The body's bytes, refused once past `maxBytes` (the stream is cancelled). */
export async function boundedBytes(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const bytes = await readBoundedBody(response, maxBytes);
  if (!bytes) throw new McpError('TRANSPORT', `answer from ${url} exceeds ${maxBytes} bytes (maxBytes)`);
  return bytes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
