/**
 * `mcpwire registry search|show|add`: the MCP Registry (`--registry URL`, default the official
 * one) read through {@link RegistryClient}; `add` installs a version through `config add`'s
 * path (see `registry-install.ts`).
 */
import { DEFAULT_REGISTRY, RegistryClient, type RegistryEntry } from '../../manager/registry/registry-client.js';
import { numberOption, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { installServer } from './registry-install.js';

/** Runs `registry SUB …`. */
export async function registryCommand(args: ParsedArgs, io: CliIO, fetcher?: typeof fetch): Promise<Outcome> {
  const sub = args.words[1];
  const timeout = numberOption(args, 'timeout');
  const client = new RegistryClient({
    baseUrl: stringOption(args, 'registry') ?? io.env.MCPWIRE_REGISTRY ?? DEFAULT_REGISTRY,
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
    ...(fetcher ? { fetch: fetcher } : {}),
  });
  switch (sub) {
    case 'search':
      return search(client, args);
    case 'show':
      return show(client, args);
    case 'add':
      return add(client, args, io, fetcher);
    default:
      throw new UsageError(
        sub === undefined ? 'registry needs search, show or add' : `unknown registry command "${sub}"`,
      );
  }
}

async function search(client: RegistryClient, args: ParsedArgs): Promise<Outcome> {
  const text = operand(args, 'search', 'TEXT');
  const limit = numberOption(args, 'limit');
  const cursor = stringOption(args, 'cursor');
  const page = await client.search(text, {
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
  });
  const lines = page.servers.map(
    (e) =>
      `${e.server.name}  ${e.server.version}${e.status && e.status !== 'active' ? ` [${e.status}]` : ''}  ${oneLine(e.server.description)}`,
  );
  if (!lines.length) lines.push(`no server in ${client.baseUrl} matches "${text}"`);
  if (page.skipped) lines.push(`(${page.skipped} entries were not valid server.json and are left out)`);
  if (page.nextCursor) lines.push(`more: mcpwire registry search ${text} --cursor ${page.nextCursor}`);
  return {
    json: {
      registry: client.baseUrl,
      servers: page.servers.map(summary),
      nextCursor: page.nextCursor ?? null,
      skipped: page.skipped,
    },
    text: lines.join('\n'),
  };
}

async function show(client: RegistryClient, args: ParsedArgs): Promise<Outcome> {
  const name = operand(args, 'show', 'NAME');
  const entry = await client.get(name, stringOption(args, 'version') ?? 'latest');
  const versions = await client.versions(name).catch(() => []);
  const s = entry.server;
  const lines = [
    `${s.name} ${s.version}${entry.status ? ` (${entry.status})` : ''}${s.title ? ` — ${s.title}` : ''}`,
    `  ${oneLine(s.description)}`,
    ...(s.websiteUrl ? [`  website: ${s.websiteUrl}`] : []),
    ...(s.repository ? [`  repository: ${s.repository.url}`] : []),
    ...s.packages.map(
      (p) =>
        `  package ${p.registryType} ${p.identifier}${p.version ? `@${p.version}` : ''} (${p.transport.type})` +
        inputsOf(p.environmentVariables.map((v) => ({ ...v, label: v.name }))),
    ),
    ...s.remotes.map((r) => `  remote ${r.type} ${r.url}` + inputsOf(r.headers.map((h) => ({ ...h, label: h.name })))),
    ...(versions.length > 1 ? [`  versions: ${versions.map((v) => v.server.version).join(', ')}`] : []),
    `  install: mcpwire registry add ${s.name}${stringOption(args, 'version') ? ` --version ${s.version}` : ''}`,
  ];
  return {
    json: { registry: client.baseUrl, ...summary(entry), server: s, versions: versions.map((v) => v.server.version) },
    text: lines.join('\n'),
  };
}

async function add(client: RegistryClient, args: ParsedArgs, io: CliIO, fetcher?: typeof fetch): Promise<Outcome> {
  const name = operand(args, 'add', 'NAME');
  const entry = await client.get(name, stringOption(args, 'version') ?? 'latest');
  return installServer(args, io, entryName(entry.server.name), entry.server, {
    from: client.baseUrl,
    ...(entry.status !== undefined ? { status: entry.status } : {}),
    ...(fetcher ? { fetch: fetcher } : {}),
  });
}

/** `io.github.user/weather-mcp` as the config entry's name: `weather-mcp`. */
function entryName(registryName: string): string {
  const last = registryName.slice(registryName.lastIndexOf('/') + 1).replace(/[^\w.@-]+/g, '-');
  return /^[A-Za-z0-9]/.test(last) ? last : `server-${last}`;
}

function operand(args: ParsedArgs, sub: string, what: string): string {
  const value = args.words[2];
  if (value === undefined) throw new UsageError(`registry ${sub} needs ${what}`);
  if (args.words.length > 3)
    throw new UsageError(`registry ${sub} takes one ${what}, got: ${args.words.slice(2).join(' ')}`);
  return value;
}

function summary(entry: RegistryEntry): Record<string, unknown> {
  return {
    name: entry.server.name,
    version: entry.server.version,
    description: entry.server.description,
    status: entry.status ?? null,
    kinds: [...entry.server.packages.map((p) => p.registryType), ...entry.server.remotes.map(() => 'remote')],
  };
}

function inputsOf(specs: Array<{ label: string; isRequired?: boolean; isSecret?: boolean }>): string {
  if (!specs.length) return '';
  return `; inputs: ${specs.map((s) => `${s.label}${s.isSecret ? ' (secret)' : s.isRequired ? ' (required)' : ''}`).join(', ')}`;
}

function oneLine(text: string): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
