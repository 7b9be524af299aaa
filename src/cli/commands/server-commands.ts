/**
 * The commands that talk to one server: info, tools, call, resources, templates, read, prompts,
 * prompt, complete, ping, skills. Each takes a connected session and returns an {@link Outcome}; the
 * work is the client's, this file only shapes arguments and output.
 */
import { resultToText } from '../../llm/result-text.js';
import type { McpClient } from '../../client/mcp-client.js';
import { isModelVisible } from '../../protocol/extensions/apps-types.js';
import { jsonText } from '../../protocol/json-text.js';
import type { CallToolResult, Tool } from '../../protocol/types.js';
import { toolNamed } from '../call-tool-name.js';
import { callArguments } from '../tool-arguments.js';
import { flag, listOption, numberOption, pairs, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT, unprintableError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { progressLine } from '../progress-line.js';
import { firstLine, table } from '../table.js';
import { rememberList, toolEntries, type CachedEntry, type ListKind } from '../completion/list-cache.js';

export type ServerCommand = (client: McpClient, args: ParsedArgs, io: CliIO) => Promise<Outcome>;

/** The operand after the command word, or a usage error naming what is missing. */
function operand(args: ParsedArgs, index: number, what: string): string {
  const value = args.words[index];
  if (value === undefined) throw new UsageError(`missing ${what}`);
  return value;
}

/** Keeps what a command listed for shell completion (never fails the command). */
function remember(args: ParsedArgs, io: CliIO, kind: ListKind, entries: CachedEntry[]): Promise<void> {
  return rememberList(
    io.env,
    { server: stringOption(args, 'server'), url: stringOption(args, 'url'), command: args.command },
    kind,
    entries,
  );
}

function argumentSummary(schema: Tool['inputSchema'] | undefined): string {
  const properties = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return properties.map((name) => (required.has(name) ? `${name}*` : name)).join(', ');
}

/** A tool's name in the table, tagged `[app]` when only its server's MCP App may call it (never a model). */
function toolLabel(tool: Tool): string {
  return isModelVisible(tool) ? tool.name : `${tool.name} [app]`;
}

const info: ServerCommand = async (client) => {
  const json = {
    server: client.name,
    era: client.era,
    protocolVersion: client.protocolVersion,
    serverInfo: client.serverInfo ?? null,
    capabilities: client.capabilities,
    instructions: client.instructions ?? null,
  };
  const si = client.serverInfo;
  const lines = [
    `server        ${si ? `${si.title ?? si.name} ${si.version ?? ''}`.trim() : '(no serverInfo)'}`,
    `era           ${client.era}`,
    `protocol      ${client.protocolVersion}`,
    `capabilities  ${Object.keys(client.capabilities).sort().join(', ') || 'none'}`,
  ];
  if (client.pid !== undefined) lines.push(`pid           ${client.pid}`);
  if (client.instructions) lines.push('', 'instructions:', client.instructions);
  return { json, text: lines.join('\n') };
};

const tools: ServerCommand = async (client, args, io) => {
  const list = client.capabilities.tools ? await client.listTools() : [];
  await remember(args, io, 'tools', toolEntries(list));
  const text = list.length
    ? table(
        ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
        list.map((t) => [toolLabel(t), argumentSummary(t.inputSchema), firstLine(t.description ?? t.title)]),
        io.columns,
      )
    : 'no tools';
  return { json: list, text };
};

const call: ServerCommand = async (client, args, io) => {
  const name = operand(args, 1, 'tool name: mcpwire call TOOL [--arg k=v ...]');
  const available = client.capabilities.tools ? await client.listTools() : [];
  await remember(args, io, 'tools', toolEntries(available));
  const tool = toolNamed(name, stringOption(args, 'server'), available);
  if (!tool) {
    throw new CliError(
      'TOOL_NOT_FOUND',
      `tool not found: ${name} (server "${client.name}" has: ${available.map((t) => t.name).join(', ') || 'no tools'})`,
      EXIT.tool,
    );
  }
  const progress = progressLine(io.stderr, io.interactive && !flag(args, 'json'));
  let result: CallToolResult;
  try {
    result = await client.callTool(tool.name, callArguments(args, tool), { onProgress: (p) => progress.update(p) });
  } finally {
    progress.done();
  }
  const maxChars = numberOption(args, 'max-chars');
  const rendered = resultToText(
    result,
    maxChars !== undefined ? { maxChars, source: `tool "${name}"` } : { source: `tool "${name}"` },
  );
  // A peer may nest a valid result 100,000 levels deep: say so (exit 7) rather than die of a RangeError.
  const problem = flag(args, 'json') ? jsonText(result).problem : rendered.omitted;
  if (problem !== undefined)
    throw unprintableError(
      client.name,
      'tools/call',
      `result of tool "${name}"`,
      flag(args, 'json') ? `it is ${problem}` : `its ${problem}`,
    );
  // The tool's text is its result (stdout, as for a success); stderr says once that it is an error, not what.
  if (result.isError)
    return {
      json: result,
      text: rendered.text,
      exitCode: EXIT.tool,
      error: {
        code: 'TOOL_ERROR',
        message: `server "${client.name}": tool "${name}" reported an error: ${firstLine(rendered.text)}`,
        result,
      },
      notice: `server "${client.name}": tool "${name}" reported an error${rendered.text.trim() === '' ? ' (with no text)' : ' (its text is above, on stdout)'}`,
    };
  return { json: result, text: rendered.text };
};

const resources: ServerCommand = async (client, args, io) => {
  const list = client.capabilities.resources ? await client.listResources() : [];
  await remember(
    args,
    io,
    'resources',
    list.map((r) => ({ name: r.uri, description: firstLine(r.description ?? r.name) })),
  );
  const text = list.length
    ? table(
        ['URI', 'NAME', 'MIME', 'DESCRIPTION'],
        list.map((r) => [r.uri, r.name ?? '', r.mimeType ?? '', firstLine(r.description)]),
        io.columns,
      )
    : 'no resources';
  return { json: list, text };
};

const templates: ServerCommand = async (client, _args, io) => {
  const list = client.capabilities.resources ? await client.listResourceTemplates() : [];
  const text = list.length
    ? table(
        ['URI TEMPLATE', 'NAME', 'MIME', 'DESCRIPTION'],
        list.map((r) => [r.uriTemplate, r.name ?? '', r.mimeType ?? '', firstLine(r.description)]),
        io.columns,
      )
    : 'no resource templates';
  return { json: list, text };
};

const read: ServerCommand = async (client, args) => {
  const uri = operand(args, 1, 'resource URI: mcpwire read URI');
  const result = await client.readResource(uri);
  const text = result.contents
    .map((contents) => {
      const c = contents as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (typeof c.text === 'string')
        return result.contents.length > 1 ? `--- ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}\n${c.text}` : c.text;
      const bytes =
        typeof c.blob === 'string'
          ? Math.floor((c.blob.length * 3) / 4) - (c.blob.endsWith('==') ? 2 : c.blob.endsWith('=') ? 1 : 0)
          : 0;
      return `[blob ${c.uri}: ${c.mimeType ?? 'application/octet-stream'}, ${bytes} bytes; --json shows it base64-encoded]`;
    })
    .join('\n');
  return { json: result, text };
};

/**
 * `skills` lists the server's skills (SEP-2640) without reading any; `skills read URI` prints one
 * file verified against its entry (size, digest, a SKILL.md's frontmatter). A refusal fails the
 * command with the reason only: none of the refused bytes reach stdout.
 */
const skills: ServerCommand = async (client, args, io) => {
  if (args.words[1] === 'read') {
    const uri = operand(args, 2, 'skill file URI: mcpwire skills read URI');
    // A fresh connection holds no entry yet: the listing is what the file is verified against.
    await client.skills.list();
    const file = await client.skills.read(uri);
    const text =
      file.text ??
      `[${file.uri}: ${file.mimeType ?? 'application/octet-stream'}, ${file.bytes.length} bytes, verified; not text]`;
    return { json: { uri: file.uri, mimeType: file.mimeType, verified: file.verified, text: file.text }, text };
  }
  if (args.words[1] !== undefined) throw new UsageError(`unknown skills subcommand "${args.words[1]}": list or read`);
  if (!client.skills.supported)
    return { json: { skills: [], invalid: [] }, text: 'no skills (the server does not publish any)' };
  const listing = await client.skills.list();
  const rows = listing.skills.map((s) => [
    s.frontmatter.name,
    s.uri,
    Array.isArray(s.resources) ? String(s.resources.length) : 'dynamic',
    firstLine(s.frontmatter.description),
  ]);
  const lines = rows.length ? [table(['NAME', 'URI', 'FILES', 'DESCRIPTION'], rows, io.columns)] : ['no skills'];
  for (const bad of listing.invalid) lines.push(`refused entry ${bad.uri ?? `#${bad.index}`}: ${bad.reason}`);
  return { json: listing, text: lines.join('\n') };
};

const prompts: ServerCommand = async (client, args, io) => {
  const list = client.capabilities.prompts ? await client.listPrompts() : [];
  await remember(
    args,
    io,
    'prompts',
    list.map((p) => ({
      name: p.name,
      description: firstLine(p.description ?? p.title),
      arguments: (p.arguments ?? []).map((a) => a.name),
    })),
  );
  const text = list.length
    ? table(
        ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
        list.map((p) => [
          p.name,
          (p.arguments ?? []).map((a) => (a.required ? `${a.name}*` : a.name)).join(', '),
          firstLine(p.description ?? p.title),
        ]),
        io.columns,
      )
    : 'no prompts';
  return { json: list, text };
};

const prompt: ServerCommand = async (client, args) => {
  const name = operand(args, 1, 'prompt name: mcpwire prompt PROMPT [--arg k=v ...]');
  const values = pairs(listOption(args, 'arg'), 'arg') as Record<string, string>;
  const result = await client.getPrompt(name, Object.keys(values).length ? values : undefined);
  const text = [
    ...(result.description ? [result.description, ''] : []),
    ...result.messages.map((m) => {
      const c = m.content as { type: string; text?: string; resource?: { uri?: string } };
      return `${m.role}: ${c.type === 'text' ? c.text : c.type === 'resource' ? `[resource ${c.resource?.uri ?? ''}]` : `[${c.type}]`}`;
    }),
  ].join('\n');
  return { json: result, text };
};

const complete: ServerCommand = async (client, args) => {
  const promptName = stringOption(args, 'prompt');
  const template = stringOption(args, 'resource');
  if ((promptName === undefined) === (template === undefined))
    throw new UsageError('complete needs --prompt NAME or --resource URI_TEMPLATE (one of them)');
  const argument = stringOption(args, 'argument');
  if (argument === undefined) throw new UsageError('complete needs --argument NAME (and --value PREFIX)');
  const ref =
    promptName !== undefined
      ? { type: 'ref/prompt' as const, name: promptName }
      : { type: 'ref/resource' as const, uri: template! };
  const context = pairs(listOption(args, 'context'), 'context') as Record<string, string>;
  const completion = await client.complete(
    ref,
    { name: argument, value: stringOption(args, 'value') ?? '' },
    Object.keys(context).length ? { context: { arguments: context } } : {},
  );
  const more = completion.hasMore ? `\n… more (${completion.total ?? 'unknown'} in all)` : '';
  return { json: completion, text: (completion.values.join('\n') || 'no completions') + more };
};

const ping: ServerCommand = async (client) => {
  const started = performance.now();
  await client.ping();
  const ms = Math.round((performance.now() - started) * 10) / 10;
  return {
    json: { ms, method: client.era === 'modern' ? 'server/discover' : 'ping' },
    text: `pong from ${client.name} in ${ms} ms${client.era === 'modern' ? ' (server/discover: 2026-07-28 has no ping)' : ''}`,
  };
};

export const SERVER_COMMANDS: Record<string, ServerCommand> = {
  info,
  tools,
  call,
  resources,
  templates,
  read,
  prompts,
  prompt,
  complete,
  ping,
  skills,
};

/** The method whose answer each of {@link SERVER_COMMANDS} prints (for messages about that answer). */
export const COMMAND_METHODS: Record<string, string> = {
  info: 'initialize',
  tools: 'tools/list',
  call: 'tools/call',
  resources: 'resources/list',
  templates: 'resources/templates/list',
  read: 'resources/read',
  prompts: 'prompts/list',
  prompt: 'prompts/get',
  complete: 'completion/complete',
  ping: 'ping',
  skills: 'skills/list',
};
