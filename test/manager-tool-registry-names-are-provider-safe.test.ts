/**
 * The manager's tool registry exposes `mcp__<server>__<tool>` under names LLM providers accept
 * (`^[A-Za-z0-9_-]{1,64}$`): unsafe characters replaced, long names cut with a stable hash,
 * clashes settled the same way whatever the registration order, and every name resolving back.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../src/protocol/types.js';
import { canonicalToolName, ToolRegistry } from '../src/manager/catalogue/tool-registry.js';

const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const tool = (name: string, description?: string): Tool => ({
  name,
  inputSchema: { type: 'object' },
  ...(description ? { description } : {}),
});

/** The first `length` hex digits of the SHA-256 of `text` (UTF-8). */
const hash = (text: string, length = 8): string =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, length);

/** A registry holding `servers` (registered in the given order). */
function registryOf(servers: ReadonlyArray<readonly [string, readonly string[]]>): ToolRegistry {
  const registry = new ToolRegistry();
  for (const [server, tools] of servers)
    registry.register(
      server,
      tools.map((name) => tool(name)),
    );
  return registry;
}

/** Exposed name per (server, tool) pair. */
function namesOf(registry: ToolRegistry): Map<string, string> {
  return new Map(registry.list().map((entry) => [JSON.stringify([entry.server, entry.tool]), entry.name]));
}

const nameOf = (registry: ToolRegistry, server: string, toolName: string): string | undefined =>
  registry.list().find((entry) => entry.server === server && entry.tool === toolName)?.name;

/** Registers `servers` in the given order and in reverse, asserts both give the same names, returns them. */
function namesInEitherOrder(servers: ReadonlyArray<readonly [string, readonly string[]]>): Map<string, string> {
  const forward = namesOf(registryOf(servers));
  const backward = namesOf(
    registryOf([...servers].reverse().map(([server, tools]) => [server, [...tools].reverse()] as const)),
  );
  expect(backward).toEqual(forward);
  return forward;
}

describe('tool registry: names', () => {
  it.each([
    ['fs', 'read_file'],
    ['my-srv', 'Tool-1'],
    ['UPPER', 'lower_and-dash'],
    ['', 'empty_server'],
    ['empty_tool', ''],
    ['', ''],
  ])('keeps the safe canonical name of %j / %j', (server, name) => {
    const registry = registryOf([[server, [name]]]);
    const canonical = `mcp__${server}__${name}`;
    expect(canonicalToolName(server, name)).toBe(canonical);
    expect(registry.list().map((entry) => entry.name)).toEqual([canonical]);
    expect(canonical).toMatch(PROVIDER_NAME);
    expect(registry.renames()).toEqual([]);
  });

  it.each([
    ['dots', 'fs', 'read.file', 'mcp__fs__read_file'],
    ['spaces', 'my srv', 'list files', 'mcp__my_srv__list_files'],
    ['slashes', 'a/b', 'c\\d', 'mcp__a_b__c_d'],
    ['colons and at-signs', '@org/pkg', 'ns:tool', 'mcp___org_pkg__ns_tool'],
    ['accented letters', 'café', 'naïve', 'mcp__caf___na_ve'],
    ['CJK, one _ per character', 'サーバ', '読む', `mcp__${'_'.repeat(3)}__${'_'.repeat(2)}`],
    ['an emoji is one code point, one _', 'x', 'tool🔧', 'mcp__x__tool_'],
    ['a lone surrogate', 'x', 'a\ud800b', 'mcp__x__a_b'],
  ])('replaces %s with _', (_label, server, name, exposed) => {
    const registry = registryOf([[server, [name]]]);
    expect(registry.list().map((entry) => entry.name)).toEqual([exposed]);
    expect(registry.renames()).toEqual([
      { server, tool: name, canonical: canonicalToolName(server, name), name: exposed, reasons: ['characters'] },
    ]);
  });

  it.each([63, 64, 65, 66, 200])('cuts a canonical name of %i characters to at most 64 with a hash', (length) => {
    const server = 'srv';
    const name = 't'.repeat(length - 'mcp__srv__'.length);
    const canonical = canonicalToolName(server, name);
    expect(canonical).toHaveLength(length);
    const [entry] = registryOf([[server, [name]]]).list();
    expect(entry!.name).toMatch(PROVIDER_NAME);
    if (length <= 64) {
      expect(entry!.name).toBe(canonical);
    } else {
      expect(entry!.name).toBe(`${canonical.slice(0, 55)}_${hash(canonical)}`);
      expect(entry!.name).toHaveLength(64);
    }
  });

  it('hashes the canonical name, not the replaced one, when a long name also has unsafe characters', () => {
    const server = 'my.server';
    const name = 'a.very.long.tool.name.that.goes.on.and.on.past.the.provider.limit';
    const canonical = canonicalToolName(server, name);
    const registry = registryOf([[server, [name]]]);
    const exposed = `${canonical.replace(/\./g, '_').slice(0, 55)}_${hash(canonical)}`;
    expect(registry.list()[0]!.name).toBe(exposed);
    expect(registry.renames()).toEqual([
      { server, tool: name, canonical, name: exposed, reasons: ['characters', 'length'] },
    ]);
  });

  it('gives a long name the same hash in every registry and every process', () => {
    const name = 'x'.repeat(60);
    // A fixed value: a change of the rules or the hash shows here, not only in a comparison.
    const golden = `mcp__github__${'x'.repeat(42)}_fc3738f9`;
    const alone = registryOf([['github', [name]]]);
    const crowded = registryOf([
      ['other', ['a', 'b', 'x'.repeat(70)]],
      ['github', ['first', name, 'last']],
    ]);
    expect(nameOf(alone, 'github', name)).toBe(golden);
    expect(nameOf(crowded, 'github', name)).toBe(golden);
  });

  it('never uses a name outside the provider pattern, however odd the input', () => {
    const registry = registryOf([
      ['', ['', ' ', '.', '🔧🔧🔧', '\u0000', '-'.repeat(100)]],
      ['ünïcödé server with a name far longer than anything a provider would accept as is', ['x', 'y'.repeat(300)]],
      ['__', ['__', '____']],
    ]);
    const names = registry.list().map((entry) => entry.name);
    expect(names).toHaveLength(10);
    for (const name of names) expect(name).toMatch(PROVIDER_NAME);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('tool registry: collisions do not depend on registration order', () => {
  it('within a server: the tool with the safe name keeps it, the other takes its own hash', () => {
    const names = namesInEitherOrder([['s', ['a.b', 'a_b']]]);
    expect(names.get('["s","a_b"]')).toBe('mcp__s__a_b');
    expect(names.get('["s","a.b"]')).toBe(`mcp__s__a_b_${hash('mcp__s__a.b')}`);
    // And in the other order within the one server.
    expect(namesOf(registryOf([['s', ['a_b', 'a.b']]]))).toEqual(names);
  });

  it('across servers: the server with the safe name keeps it', () => {
    const names = namesInEitherOrder([
      ['my.srv', ['t', 'only_here']],
      ['my_srv', ['t']],
    ]);
    expect(names.get('["my_srv","t"]')).toBe('mcp__my_srv__t');
    expect(names.get('["my.srv","t"]')).toBe(`mcp__my_srv__t_${hash('mcp__my.srv__t')}`);
    expect(names.get('["my.srv","only_here"]')).toBe('mcp__my_srv__only_here');
  });

  it('when no name of the clash is safe, every one of them takes its hash', () => {
    const names = namesInEitherOrder([['s', ['a.b', 'a b', 'a/b']]]);
    expect([...names.values()].sort()).toEqual(
      ['a.b', 'a b', 'a/b'].map((name) => `mcp__s__a_b_${hash(`mcp__s__${name}`)}`).sort(),
    );
  });

  it('two long names with the same prefix differ by their hashes (no collision needed)', () => {
    const prefix = 'p'.repeat(70);
    const registry = registryOf([['s', [`${prefix}1`, `${prefix}2`]]]);
    const names = namesInEitherOrder([['s', [`${prefix}1`, `${prefix}2`]]]);
    expect(new Set(names.values()).size).toBe(2);
    for (const name of names.values()) expect(name).toHaveLength(64);
    expect(registry.renames().map((rename) => rename.reasons)).toEqual([['length'], ['length']]);
  });

  it('pairs that share a canonical name: the shorter server owns it, the other hashes its pair', () => {
    const names = namesInEitherOrder([
      ['a__b', ['c']],
      ['a', ['b__c']],
    ]);
    expect(names.get('["a","b__c"]')).toBe('mcp__a__b__c');
    expect(names.get('["a__b","c"]')).toBe(`mcp__a__b__c_${hash(JSON.stringify(['a__b', 'c']))}`);
    const registry = registryOf([
      ['a__b', ['c']],
      ['a', ['b__c']],
    ]);
    expect(registry.resolveToolName('mcp__a__b__c')).toEqual({ server: 'a', tool: 'b__c' });
    expect(registry.renames()).toEqual([
      { server: 'a__b', tool: 'c', canonical: 'mcp__a__b__c', name: names.get('["a__b","c"]'), reasons: ['collision'] },
    ]);
  });

  it('a hashed name that clashes with a real tool name takes a longer hash', () => {
    // The tool `x_y_<hash>` has exactly the name `x.y` would get; it is safe, so it keeps it.
    const lookalike = `x_y_${hash('mcp__s__x.y')}`;
    const names = namesInEitherOrder([['s', ['x.y', 'x_y']]]);
    expect(names.get('["s","x.y"]')).toBe(`mcp__s__${lookalike}`);
    const crowded = namesInEitherOrder([['s', ['x.y', 'x_y', lookalike]]]);
    expect(crowded.get('["s","x_y"]')).toBe('mcp__s__x_y');
    expect(crowded.get(JSON.stringify(['s', lookalike]))).toBe(`mcp__s__${lookalike}`);
    expect(crowded.get('["s","x.y"]')).toBe(`mcp__s__x_y_${hash('mcp__s__x.y', 16)}`);
    const rename = registryOf([['s', ['x.y', 'x_y', lookalike]]]).renames();
    expect(rename).toEqual([
      {
        server: 's',
        tool: 'x.y',
        canonical: 'mcp__s__x.y',
        name: `mcp__s__x_y_${hash('mcp__s__x.y', 16)}`,
        reasons: ['characters', 'collision'],
      },
    ]);
  });

  it('a server that lists one tool name twice keeps the first definition', () => {
    const registry = new ToolRegistry();
    registry.register('liar', [
      tool('dup', 'first'),
      tool('other'),
      tool('dup', 'second'),
      { inputSchema: {} } as unknown as Tool,
    ]);
    expect(registry.list().map((entry) => [entry.name, entry.definition.description])).toEqual([
      ['mcp__liar__dup', 'first'],
      ['mcp__liar__other', undefined],
    ]);
    expect(registry.renames()).toEqual([]);
  });
});

describe('tool registry: registration', () => {
  it('lists servers in first-registration order and tools in server order', () => {
    const registry = registryOf([
      ['b', ['z', 'a']],
      ['a', ['m']],
      ['empty', []],
    ]);
    registry.register('b', [tool('y'), tool('x')]);
    expect(registry.servers()).toEqual(['b', 'a', 'empty']);
    expect(registry.list().map((entry) => entry.name)).toEqual(['mcp__b__y', 'mcp__b__x', 'mcp__a__m']);
    expect(registry.get('mcp__a__m')).toMatchObject({ server: 'a', tool: 'm', definition: { name: 'm' } });
    expect(registry.get('mcp__b__z')).toBeUndefined();
  });

  it('a re-registration makes a clash appear and disappear; tools outside it keep their names', () => {
    const registry = registryOf([
      ['my.srv', ['t', 'u']],
      ['other', ['v.w']],
    ]);
    const before = namesOf(registry);
    expect(before.get('["my.srv","t"]')).toBe('mcp__my_srv__t');

    registry.register('my_srv', [tool('t')]);
    const during = namesOf(registry);
    expect(during.get('["my.srv","t"]')).toBe(`mcp__my_srv__t_${hash('mcp__my.srv__t')}`);
    expect(during.get('["my_srv","t"]')).toBe('mcp__my_srv__t');
    for (const key of ['["my.srv","u"]', '["other","v.w"]']) expect(during.get(key)).toBe(before.get(key));

    registry.register('my_srv', [tool('different')]);
    const after = namesOf(registry);
    for (const [key, name] of before) expect(after.get(key)).toBe(name);
    expect(after.get('["my_srv","different"]')).toBe('mcp__my_srv__different');
  });

  it('unregister removes one server and leaves the others', () => {
    const registry = registryOf([
      ['my.srv', ['t']],
      ['my_srv', ['t']],
      ['empty', []],
      ['keep', ['k']],
    ]);
    expect(registry.unregister('my_srv')).toBe(true);
    expect(registry.servers()).toEqual(['my.srv', 'empty', 'keep']);
    // The clash is gone: the survivor gets its replaced name back.
    expect(registry.list().map((entry) => entry.name)).toEqual(['mcp__my_srv__t', 'mcp__keep__k']);
    expect(registry.resolveToolName('mcp__my_srv__t')).toEqual({ server: 'my.srv', tool: 't' });
    expect(registry.unregister('my_srv')).toBe(false);
    expect(registry.unregister('empty')).toBe(false);
    expect(registry.servers()).toEqual(['my.srv', 'keep']);
    expect(registry.unregister('never')).toBe(false);
  });

  it('renames lists exactly the tools whose exposed name differs, with their reasons', () => {
    const long = 'l'.repeat(64);
    const registry = registryOf([
      ['fs', ['read_file', 'read.file', 'write file']],
      ['fs_', []],
      ['git', ['read_file', long]],
    ]);
    expect(registry.renames()).toEqual([
      {
        server: 'fs',
        tool: 'read.file',
        canonical: 'mcp__fs__read.file',
        name: `mcp__fs__read_file_${hash('mcp__fs__read.file')}`,
        reasons: ['characters', 'collision'],
      },
      {
        server: 'fs',
        tool: 'write file',
        canonical: 'mcp__fs__write file',
        name: 'mcp__fs__write_file',
        reasons: ['characters'],
      },
      {
        server: 'git',
        tool: long,
        canonical: `mcp__git__${long}`,
        name: `mcp__git__${long.slice(0, 45)}_${hash(`mcp__git__${long}`)}`,
        reasons: ['length'],
      },
    ]);
  });

  it('resolveToolName accepts exposed and canonical names and nothing else', () => {
    const long = 'q'.repeat(80);
    const registry = registryOf([['s.1', ['a.b', 'a_b', long]]]);
    for (const entry of registry.list()) {
      expect(registry.resolveToolName(entry.name)).toEqual({ server: entry.server, tool: entry.tool });
      expect(registry.resolveToolName(canonicalToolName(entry.server, entry.tool))).toEqual({
        server: entry.server,
        tool: entry.tool,
      });
    }
    expect(registry.resolveToolName('mcp__s_1__nope')).toBeUndefined();
    expect(registry.resolveToolName('a_b')).toBeUndefined();
    expect(registry.resolveToolName('')).toBeUndefined();
  });

  it('resolves every name of a large generated catalogue back to its pair', () => {
    const odd = ['.', ' ', '/', '_', '__', '-', 'é', '🔧', 'x'.repeat(40)];
    const servers: Array<[string, string[]]> = [];
    for (let s = 0; s < 40; s++) {
      const server = `srv${odd[s % odd.length]}${s % 7}`;
      if (servers.some(([name]) => name === server)) continue;
      servers.push([
        server,
        Array.from({ length: 50 }, (_, t) => `tool${odd[t % odd.length]}${t % 11}${odd[(s + t) % odd.length]}`),
      ]);
    }
    const registry = registryOf(servers);
    const entries = registry.list();
    expect(entries.length).toBeGreaterThan(500);
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.name).toMatch(PROVIDER_NAME);
      expect(registry.resolveToolName(entry.name)).toEqual({ server: entry.server, tool: entry.tool });
      expect(registry.get(entry.name)).toBe(entry);
    }
  });
});

describe('tool registry: properties', () => {
  // A small alphabet of troublemakers, so clashes, twins and long names are frequent.
  const piece = fc.constantFrom('a', 'b', '_', '__', '-', '.', ' ', '/', 'é', '🔧', '\ud800', 'x'.repeat(30));
  const name = fc.string({ unit: piece, maxLength: 6 });
  const catalogue = fc.uniqueArray(fc.tuple(name, fc.uniqueArray(name, { maxLength: 8 })), {
    selector: ([server]) => server,
    maxLength: 6,
  });

  it('every name is provider-safe, unique, resolves back, and does not depend on the order', () => {
    fc.assert(
      fc.property(catalogue, fc.nat(), (servers, seed) => {
        const registry = registryOf(servers);
        const entries = registry.list();
        expect(entries).toHaveLength(servers.reduce((sum, [, tools]) => sum + tools.length, 0));
        const names = entries.map((entry) => entry.name);
        expect(new Set(names).size).toBe(names.length);
        for (const entry of entries) {
          expect(entry.name).toMatch(PROVIDER_NAME);
          expect(registry.resolveToolName(entry.name)).toEqual({ server: entry.server, tool: entry.tool });
          const byCanonical = registry.resolveToolName(canonicalToolName(entry.server, entry.tool))!;
          expect(canonicalToolName(byCanonical.server, byCanonical.tool)).toBe(
            canonicalToolName(entry.server, entry.tool),
          );
        }
        const renamed = new Set(registry.renames().map((rename) => rename.name));
        for (const entry of entries)
          expect(renamed.has(entry.name)).toBe(entry.name !== canonicalToolName(entry.server, entry.tool));

        // Another registration order (rotated servers, reversed tools) gives the same names.
        const rotated = servers.map((_, i) => servers[(i + seed) % servers.length]!);
        expect(namesOf(registryOf(rotated.map(([server, tools]) => [server, [...tools].reverse()])))).toEqual(
          namesOf(registry),
        );
      }),
      { numRuns: 300 },
    );
  });
});
