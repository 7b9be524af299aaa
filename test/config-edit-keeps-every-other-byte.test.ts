/**
 * The format-preserving editors: adding a server and removing it again gives back the file's
 * bytes (comments, key order, indentation, line endings), a broken file is refused naming the
 * line and column, and an entry lands where each host's loader looks.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../src/protocol/errors.js';
import { openConfigDocument } from '../src/manager/config/edit/open-document.js';
import type { ConfigFormat } from '../src/manager/config/edit/config-document.js';
import { entryShape } from '../src/manager/config/edit/entry-shapes.js';

const entry = { command: 'node', args: ['server.js', '--flag'], env: { MODE: 'test' } };

const FILES: Array<{ name: string; format: ConfigFormat; container: string[]; text: string }> = [
  {
    name: 'JSON, two-space, Claude Desktop',
    format: 'json',
    container: ['mcpServers'],
    text: '{\n  "globalShortcut": "",\n  "mcpServers": {\n    "fs": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]\n    }\n  }\n}\n',
  },
  {
    name: 'JSONC with comments and trailing commas, VS Code',
    format: 'jsonc',
    container: ['servers'],
    text: '{\n\t// Servers of this workspace\n\t"inputs": [],\n\t"servers": {\n\t\t/* GitHub */\n\t\t"github": {\n\t\t\t"type": "http",\n\t\t\t"url": "https://api.githubcopilot.com/mcp/", // remote\n\t\t},\n\t},\n}\n',
  },
  {
    name: 'JSON with CRLF and four spaces',
    format: 'json',
    container: ['mcpServers'],
    text: '{\r\n    "mcpServers": {\r\n        "a": {\r\n            "command": "a"\r\n        }\r\n    }\r\n}\r\n',
  },
  {
    name: 'TOML with comments, Codex',
    format: 'toml',
    container: ['mcp_servers'],
    text: '# Codex\nmodel = "o3"  # the model\n\n# documentation server\n[mcp_servers.docs]\ncommand = "npx"   # via npx\nargs = ["-y", "docs-mcp"]\n\n[mcp_servers.docs.env]\nTOKEN = "x"\n\n# profiles\n[profiles.fast]\nmodel = "o4-mini"\n',
  },
  {
    name: 'YAML with comments, Goose',
    format: 'yaml',
    container: ['extensions'],
    text: '# Goose\nGOOSE_PROVIDER: openai   # provider\nextensions:\n  # the developer tools\n  developer:\n    enabled: true    # on\n    name: developer\n    type: builtin\n\n# trailing words\nGOOSE_MODEL: gpt-4o\n',
  },
  { name: 'empty TOML', format: 'toml', container: ['mcp_servers'], text: '' },
  {
    name: 'JSON with a byte order mark, Windows',
    format: 'json',
    container: ['mcpServers'],
    text: '\uFEFF{\r\n  "mcpServers": {\r\n    "a": {\r\n      "command": "a"\r\n    }\r\n  }\r\n}\r\n',
  },
  {
    name: 'JSONC with one-line entries and a comment before the root, Zed',
    format: 'jsonc',
    container: ['context_servers'],
    text: '// Zed settings\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "a": { "source": "custom", "command": "a" }, // first\n    "b": { "source": "custom", "command": "b" },\n  },\n}\n',
  },
  {
    name: 'JSON on one line, Claude Desktop written by a program',
    format: 'json',
    container: ['mcpServers'],
    text: '{"globalShortcut":"","mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem"]}}}',
  },
  {
    name: 'TOML with CRLF',
    format: 'toml',
    container: ['mcp_servers'],
    text: 'model = "o3"\r\n\r\n[mcp_servers.a]\r\ncommand = "a"\r\n',
  },
];

function parsed(format: ConfigFormat, text: string): unknown {
  if (format === 'toml') return parseToml(text);
  if (format === 'yaml') return parseYaml(text) as unknown;
  return openConfigDocument('x.json', text, format).value;
}

describe('config editors keep every byte they do not change', () => {
  for (const file of FILES)
    it(`${file.name}: add then remove gives back the original bytes`, () => {
      const document = openConfigDocument(`/tmp/f.${file.format}`, file.text, file.format);
      const added = document.withEntry(file.container, 'new-one', entry);
      expect(added).not.toBe(file.text);
      let at = parsed(file.format, added) as Record<string, unknown>;
      for (const key of file.container) at = at[key] as Record<string, unknown>;
      expect(at['new-one']).toEqual(entry);
      // Nothing of the original is lost: every original line with a comment is still there.
      for (const line of file.text.split(/\r?\n/).filter((l) => /#|\/\/|\/\*/.test(l)))
        if (file.format !== 'yaml') expect(added).toContain(line);
      if (file.text.includes('\r\n')) expect(added.replace(/\r\n/g, '')).not.toContain('\n');
      const removed = openConfigDocument(`/tmp/f.${file.format}`, added, file.format).withoutEntry(
        file.container,
        'new-one',
      );
      expect(removed).toBe(file.text);
    });

  it('YAML keeps the exact spacing of untouched lines (the library would re-space comments)', () => {
    const text = FILES.find((f) => f.format === 'yaml')!.text;
    const added = openConfigDocument('/tmp/g.yaml', text, 'yaml').withEntry(['extensions'], 'x', entry);
    expect(added).toContain('    enabled: true    # on\n');
    expect(added).toContain('GOOSE_PROVIDER: openai   # provider\n');
  });

  it('TOML writes a new server as its own [mcp_servers.NAME] table', () => {
    const text = FILES.find((f) => f.format === 'toml')!.text;
    const added = openConfigDocument('/tmp/c.toml', text, 'toml').withEntry(['mcp_servers'], 'my server', entry);
    expect(added.startsWith(text)).toBe(true);
    expect(added.slice(text.length)).toBe(
      '\n[mcp_servers."my server"]\ncommand = "node"\nargs = [ "server.js", "--flag" ]\nenv = { MODE = "test" }\n',
    );
  });

  it('TOML removes a server with its sub-tables and the comment above it, and nothing else', () => {
    const text = FILES.find((f) => f.format === 'toml')!.text;
    const removed = openConfigDocument('/tmp/c.toml', text, 'toml').withoutEntry(['mcp_servers'], 'docs');
    expect(removed).toBe('# Codex\nmodel = "o3"  # the model\n\n# profiles\n[profiles.fast]\nmodel = "o4-mini"\n');
  });

  it('JSON: an empty file gets the container and the entry; removing the entry leaves the container', () => {
    const added = openConfigDocument('/tmp/e.json', '{}', 'json').withEntry(['mcpServers'], 'x', entry);
    expect(JSON.parse(added)).toEqual({ mcpServers: { x: entry } });
    expect(openConfigDocument('/tmp/e.json', added, 'json').withoutEntry(['mcpServers'], 'x')).toBe(
      '{\n  "mcpServers": {}\n}',
    );
  });

  it('YAML: a container key with nothing under it takes the entry, keeping the comment', () => {
    const added = openConfigDocument('/tmp/n.yaml', '# nothing yet\nmcpServers:\n', 'yaml').withEntry(
      ['mcpServers'],
      'x',
      { command: 'node' },
    );
    expect(added).toBe('# nothing yet\nmcpServers:\n  x:\n    command: node\n');
  });

  it('YAML list containers (Continue) take and give back items by name, keeping comments', () => {
    const text =
      'name: my assistant\nversion: 0.0.1\nmcpServers:\n  # search\n  - name: search\n    command: npx   # via npx\n    args: [-y, search-mcp]\n';
    const document = openConfigDocument('/tmp/c.yaml', text, 'yaml');
    expect(Object.keys(document.entries(['mcpServers']))).toEqual(['search']);
    const added = document.withEntry(['mcpServers'], 'x', { command: 'node' }, true);
    expect(added).toBe(`${text}  - command: node\n    name: x\n`);
    expect(openConfigDocument('/tmp/c.yaml', added, 'yaml').withoutEntry(['mcpServers'], 'x')).toBe(text);
    const fresh = openConfigDocument('/tmp/c.yaml', 'name: a\n', 'yaml').withEntry(
      ['mcpServers'],
      'x',
      { url: 'u' },
      true,
    );
    expect(parseYaml(fresh)).toEqual({ name: 'a', mcpServers: [{ url: 'u', name: 'x' }] });
  });

  it('JSON: an entry joins an object written on one line, spaced like it; `{}` gives it lines of its own', () => {
    const add = (text: string) => openConfigDocument('/tmp/o.json', text, 'json').withEntry(['mcpServers'], 'x', entry);
    const line = '"x":{"command":"node","args":["server.js","--flag"],"env":{"MODE":"test"}}';
    expect(add('{"mcpServers":{"a":{"command":"a"}}}\n')).toBe(`{"mcpServers":{"a":{"command":"a"},${line}}}\n`);
    expect(add('{"theme":"dark","mcpServers":{}}')).toBe(`{"theme":"dark","mcpServers":{${line}}}`);
    expect(add('{"theme":"dark"}')).toBe(`{"theme":"dark","mcpServers":{${line}}}`);
    expect(add('{ "mcpServers": { "a": { "command": "a" } } }')).toBe(
      '{ "mcpServers": { "a": { "command": "a" }, "x": { "command": "node", "args": ["server.js", "--flag"], "env": { "MODE": "test" } } } }',
    );
    // Replacing (--force) keeps the line too.
    expect(
      openConfigDocument('/tmp/o.json', '{"mcpServers":{"x":{"command":"old"}}}', 'json').withEntry(
        ['mcpServers'],
        'x',
        entry,
      ),
    ).toBe(`{"mcpServers":{${line}}}`);
    // A file laid out on lines, with the container on one line of it: the entry joins that line.
    expect(add('{\n  "mcpServers": {"a": {"command": "a"}}\n}\n')).toBe(
      '{\n  "mcpServers": {"a": {"command": "a"}, "x": {"command": "node", "args": ["server.js", "--flag"], "env": {"MODE": "test"}}}\n}\n',
    );
    expect(add('{}')).toBe(
      `{\n  "mcpServers": {\n    "x": ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}\n  }\n}`,
    );
  });

  it('JSON removing the only server leaves the braces as they were before it', () => {
    const text = '{\n  "mcpServers": {}\n}\n';
    const document = openConfigDocument('/tmp/a.json', text, 'json');
    const added = document.withEntry(['mcpServers'], 'x', entry);
    expect(openConfigDocument('/tmp/a.json', added, 'json').withoutEntry(['mcpServers'], 'x')).toBe(text);
  });

  it.each([
    ['json', '{\n  "mcpServers": {\n    "a": { "command": "x" },,\n  }\n}\n', 3, 29],
    ['toml', 'model = "o3"\nb = "unterminated\n', 2, 18],
    ['yaml', 'extensions:\n  a: [1, 2\nother: 1\n', 3, 1],
  ] as const)('a broken %s file is refused naming its line and column', (format, text, line, column) => {
    let caught: unknown;
    try {
      openConfigDocument(`/tmp/broken.${format}`, text, format);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.file).toBe(`/tmp/broken.${format}`);
    expect({ line: error.line, column: error.column }).toEqual({ line, column });
    expect(error.message).toContain(`/tmp/broken.${format}:${line}:${column}`);
  });

  it('hosts get their own shapes and variable syntax', () => {
    const stdio = {
      transport: 'stdio' as const,
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { API_TOKEN: { variable: 'API_TOKEN', prefix: '' } },
    };
    const http = {
      transport: 'http' as const,
      url: 'https://x.example/mcp',
      headers: { Authorization: { variable: 'X_TOKEN', prefix: 'Bearer ' } },
    };
    expect(entryShape('vscode')!(stdio, 'n')).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { API_TOKEN: '${env:API_TOKEN}' },
    });
    expect(entryShape('opencode')!(stdio, 'n')).toEqual({
      type: 'local',
      command: ['npx', '-y', 'pkg'],
      environment: { API_TOKEN: '{env:API_TOKEN}' },
      enabled: true,
    });
    expect(entryShape('codex')!(stdio, 'n')).toEqual({ command: 'npx', args: ['-y', 'pkg'], env_vars: ['API_TOKEN'] });
    expect(entryShape('codex')!(http, 'n')).toEqual({ url: 'https://x.example/mcp', bearer_token_env_var: 'X_TOKEN' });
    expect(entryShape('windsurf')!(http, 'n')).toEqual({
      serverUrl: 'https://x.example/mcp',
      headers: { Authorization: 'Bearer ${env:X_TOKEN}' },
    });
    expect(entryShape('gemini')!(http, 'n')).toMatchObject({ httpUrl: 'https://x.example/mcp' });
    expect(entryShape('goose')!(stdio, 'n')).toMatchObject({ cmd: 'npx', env_keys: ['API_TOKEN'], type: 'stdio' });
    expect(entryShape('zed')!({ ...stdio, env: { A: 'b' } }, 'n')).toEqual({
      source: 'custom',
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { A: 'b' },
    });
    expect(() => entryShape('zed')!(stdio, 'n')).toThrow(/zed: its file expands no variables/);
    expect(() => entryShape('claude-desktop')!(stdio, 'n')).toThrow(/expands no variables/);
    expect(entryShape('continue')!(http, 'n')).toEqual({
      type: 'streamable-http',
      url: 'https://x.example/mcp',
      requestOptions: { headers: { Authorization: 'Bearer ${{ secrets.X_TOKEN }}' } },
    });
  });
});
