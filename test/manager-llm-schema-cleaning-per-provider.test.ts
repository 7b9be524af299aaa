/**
 * MCP tool schemas cleaned for each LLM provider (`cleanSchema`) and the tool exports built on
 * it: table rows of input, expected output and the change records; inputs deep-frozen so any
 * write throws; local `$ref`s inlined for Gemini, nested and recursive; the exported request
 * shapes exactly.
 */
import { describe, expect, it } from 'vitest';
import { cleanSchema, INLINE_BUDGET, type SchemaChange, type SchemaProfile } from '../src/llm/schema-profiles.js';
import { toAnthropicTools, toGeminiFunctionDeclarations, toOpenAITools } from '../src/llm/tool-export.js';
import type { Tool } from '../src/protocol/types.js';

const PROFILES: SchemaProfile[] = ['anthropic', 'openai', 'gemini'];

/** `value` with every nested object and array frozen (writes throw in strict-mode modules). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** Every object and array inside `value`, by identity. */
function objectsIn(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const item of Object.values(value)) objectsIn(item, into);
  }
  return into;
}

/** A change as `action path`, the form the tables list. */
const brief = (changes: SchemaChange[]) => changes.map((change) => `${change.action} ${change.path}`);

/** Cleans a frozen copy of `input`, checks it was not touched and shares no object with the output. */
function clean(input: unknown, profile: SchemaProfile) {
  const snapshot = structuredClone(input);
  const frozen = deepFreeze(structuredClone(input));
  const result = cleanSchema(frozen, profile);
  expect(frozen).toEqual(snapshot);
  const inputObjects = objectsIn(frozen);
  for (const object of objectsIn(result.schema)) expect(inputObjects.has(object)).toBe(false);
  return result;
}

interface Row {
  name: string;
  profiles: SchemaProfile[];
  input: unknown;
  output: Record<string, unknown>;
  changes: string[];
}

const COMMON: Row[] = [
  {
    name: 'removes $schema, $id and $comment at every level',
    profiles: PROFILES,
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:x',
      $comment: 'c',
      type: 'object',
      properties: { a: { type: 'string', $comment: 'c' } },
    },
    output: { type: 'object', properties: { a: { type: 'string' } } },
    changes: ['removed /$schema', 'removed /$id', 'removed /$comment', 'removed /properties/a/$comment'],
  },
  {
    name: 'turns integer exclusive bounds into exact inclusive ones',
    profiles: PROFILES,
    input: {
      type: 'object',
      properties: { n: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 } },
      required: ['n'],
    },
    output: { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 9 } }, required: ['n'] },
    changes: ['rewritten /properties/n/exclusiveMinimum', 'rewritten /properties/n/exclusiveMaximum'],
  },
  {
    name: 'widens number exclusive bounds and states the strict bound in the description',
    profiles: PROFILES,
    input: {
      type: 'object',
      properties: {
        r: { type: 'number', description: 'ratio', exclusiveMinimum: 0 },
        s: { type: 'number', exclusiveMaximum: 1.5 },
      },
    },
    output: {
      type: 'object',
      properties: {
        r: { type: 'number', description: 'ratio (must be > 0)', minimum: 0 },
        s: { type: 'number', maximum: 1.5, description: 'must be < 1.5' },
      },
    },
    changes: ['rewritten /properties/r/exclusiveMinimum', 'rewritten /properties/s/exclusiveMaximum'],
  },
  {
    name: 'drops an exclusive bound the inclusive one already implies, and draft-4 flags',
    profiles: PROFILES,
    input: {
      type: 'object',
      properties: {
        a: { type: 'number', minimum: 5, exclusiveMinimum: 0 },
        b: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        c: { type: 'number', maximum: 1, exclusiveMaximum: true },
        d: { type: 'number', minimum: 0, exclusiveMinimum: false },
      },
    },
    output: {
      type: 'object',
      properties: {
        a: { type: 'number', minimum: 5 },
        b: { type: 'integer', minimum: 1 },
        c: { type: 'number', maximum: 1, description: 'must be < 1' },
        d: { type: 'number', minimum: 0 },
      },
    },
    changes: [
      'removed /properties/a/exclusiveMinimum',
      'rewritten /properties/b/exclusiveMinimum',
      'rewritten /properties/c/exclusiveMaximum',
      'removed /properties/d/exclusiveMinimum',
    ],
  },
  {
    name: 'adds type "object" at the top level, first',
    profiles: ['anthropic', 'gemini'],
    input: { properties: { q: { type: 'string' } } },
    output: { type: 'object', properties: { q: { type: 'string' } } },
    changes: ['rewritten /type'],
  },
  {
    name: 'replaces a top-level schema that is not an object type, keeping its description',
    profiles: ['anthropic', 'gemini'],
    input: { type: 'string', description: 'a path' },
    output: { type: 'object', properties: {}, description: 'a path' },
    changes: ['rewritten /type'],
  },
  {
    name: 'merges top-level object alternatives; required only what every one requires',
    profiles: ['anthropic', 'openai'],
    input: {
      type: 'object',
      oneOf: [
        { type: 'object', properties: { id: { type: 'string' }, all: { type: 'boolean' } }, required: ['id', 'all'] },
        {
          type: 'object',
          properties: { name: { type: 'string' }, all: { type: 'boolean' } },
          required: ['name', 'all'],
        },
      ],
    },
    output: {
      type: 'object',
      properties: { id: { type: 'string' }, all: { type: 'boolean' }, name: { type: 'string' } },
      required: ['all'],
    },
    changes: ['rewritten /oneOf'],
  },
  {
    name: 'merges top-level allOf members, resolving their local $refs',
    profiles: ['anthropic'],
    input: {
      allOf: [{ $ref: '#/$defs/Base' }, { properties: { extra: { type: 'number' } } }],
      $defs: { Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    },
    output: {
      type: 'object',
      properties: { id: { type: 'string' }, extra: { type: 'number' } },
      required: ['id'],
      $defs: { Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    },
    changes: ['inlined /allOf'],
  },
  {
    name: 'removes top-level alternatives that are not objects',
    profiles: ['anthropic', 'gemini'],
    input: { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ type: 'string' }, { type: 'number' }] },
    output: { type: 'object', properties: { a: { type: 'string' } } },
    changes: ['removed /anyOf'],
  },
  {
    name: 'inlines a top-level $ref',
    profiles: ['anthropic', 'openai'],
    input: { $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { x: { type: 'string' } } } } },
    output: {
      type: 'object',
      properties: { x: { type: 'string' } },
      $defs: { Args: { type: 'object', properties: { x: { type: 'string' } } } },
    },
    changes: ['inlined /$ref'],
  },
];

const OPENAI: Row[] = [
  {
    name: 'adds empty top-level properties and removes top-level enum and not',
    profiles: ['openai'],
    input: { type: 'object', enum: [{}], not: { required: ['x'] } },
    output: { type: 'object', properties: {} },
    changes: ['removed /enum', 'removed /not', 'rewritten /properties'],
  },
  {
    name: 'gives every array an items schema',
    profiles: ['openai'],
    input: {
      type: 'object',
      properties: { paths: { type: 'array', description: 'files' }, grid: { type: 'array', items: { type: 'array' } } },
    },
    output: {
      type: 'object',
      properties: {
        paths: { type: 'array', description: 'files', items: {} },
        grid: { type: 'array', items: { type: 'array', items: {} } },
      },
    },
    changes: ['rewritten /properties/paths/items', 'rewritten /properties/grid/items/items'],
  },
  {
    name: 'replaces a top-level non-object type and adds properties',
    profiles: ['openai'],
    input: { type: 'array', items: { type: 'string' } },
    output: { type: 'object', properties: {} },
    changes: ['rewritten /type'],
  },
  {
    name: 'keeps what non-strict function calling accepts (refs, nested composition, additionalProperties)',
    profiles: ['openai', 'anthropic'],
    input: {
      type: 'object',
      properties: {
        v: { anyOf: [{ $ref: '#/$defs/V' }, { type: 'null' }] },
        m: { type: 'object', additionalProperties: { type: 'integer', exclusiveMinimum: 1 } },
      },
      additionalProperties: false,
      $defs: { V: { type: 'string', format: 'uri', const: 'x' } },
    },
    output: {
      type: 'object',
      properties: {
        v: { anyOf: [{ $ref: '#/$defs/V' }, { type: 'null' }] },
        m: { type: 'object', additionalProperties: { type: 'integer', minimum: 2 } },
      },
      additionalProperties: false,
      $defs: { V: { type: 'string', format: 'uri', const: 'x' } },
    },
    changes: ['rewritten /properties/m/additionalProperties/exclusiveMinimum'],
  },
];

const ANTHROPIC: Row[] = [
  {
    name: 'leaves a bare array and a typeless top level with properties as JSON Schema allows, adding only the type',
    profiles: ['anthropic'],
    input: { properties: { tags: { type: 'array' } }, additionalProperties: false },
    output: { type: 'object', properties: { tags: { type: 'array' } }, additionalProperties: false },
    changes: ['rewritten /type'],
  },
];

const GEMINI: Row[] = [
  {
    name: 'inlines $defs and definitions refs (nested, siblings win) and drops the definitions',
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/A', description: 'the a' },
        list: { type: 'array', items: { $ref: '#/definitions/B' } },
      },
      $defs: { A: { type: 'object', description: 'an A', properties: { b: { $ref: '#/definitions/B' } } } },
      definitions: { B: { type: 'string', title: 'B' } },
    },
    output: {
      type: 'object',
      properties: {
        a: { type: 'object', description: 'the a', properties: { b: { type: 'string', title: 'B' } } },
        list: { type: 'array', items: { type: 'string', title: 'B' } },
      },
    },
    changes: [
      'inlined /properties/a/$ref',
      'inlined /properties/a/properties/b/$ref',
      'inlined /properties/list/items/$ref',
      'removed /$defs',
      'removed /definitions',
    ],
  },
  {
    name: 'cuts a recursive $ref after two levels with { type: "object" }',
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    },
    output: {
      type: 'object',
      properties: {
        root: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: { type: 'string' }, children: { type: 'array', items: { type: 'object' } } },
              },
            },
          },
        },
      },
    },
    changes: [
      'inlined /properties/root/$ref',
      'inlined /properties/root/properties/children/items/$ref',
      'rewritten /properties/root/properties/children/items/properties/children/items/$ref',
      'removed /$defs',
    ],
  },
  {
    name: 'inlines refs to other places and to the root; removes remote and dangling refs',
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        headers: { type: 'object', properties: { k: { type: 'string' } } },
        more: { type: 'array', items: { $ref: '#/properties/headers' } },
        self: { $ref: '#', description: 'again' },
        remote: { $ref: 'https://example.com/s.json', description: 'r' },
        dangling: { $ref: '#/$defs/Missing' },
      },
    },
    output: {
      type: 'object',
      properties: {
        headers: { type: 'object', properties: { k: { type: 'string' } } },
        more: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
        self: {
          type: 'object',
          description: 'again',
          properties: {
            headers: { type: 'object', properties: { k: { type: 'string' } } },
            more: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
            self: { type: 'object', description: 'again' },
            remote: { description: 'r' },
            dangling: {},
          },
        },
        remote: { description: 'r' },
        dangling: {},
      },
    },
    changes: [
      'inlined /properties/more/items/$ref',
      'inlined /properties/self/$ref',
      'inlined /properties/self/properties/more/items/$ref',
      'rewritten /properties/self/properties/self/$ref',
      'removed /properties/self/properties/remote/$ref',
      'removed /properties/self/properties/dangling/$ref',
      'removed /properties/remote/$ref',
      'removed /properties/dangling/$ref',
    ],
  },
  {
    name: "nullable types, const and enums in Gemini's terms",
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        either: { type: ['string', 'number'] },
        kind: { type: 'string', const: 'fixed' },
        color: { type: 'string', enum: ['red', '', null] },
        level: { type: 'integer', description: 'log level', enum: [1, 2, 3] },
      },
    },
    output: {
      type: 'object',
      properties: {
        maybe: { type: 'string', nullable: true },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        kind: { type: 'string', enum: ['fixed'] },
        color: { type: 'string', enum: ['red'], nullable: true },
        level: { type: 'integer', description: 'log level (one of: 1, 2, 3)' },
      },
    },
    changes: [
      'rewritten /properties/maybe/type',
      'rewritten /properties/either/type',
      'rewritten /properties/kind/const',
      'rewritten /properties/color/enum',
      'removed /properties/level/enum',
    ],
  },
  {
    name: 'oneOf as anyOf, allOf merged, null branches as nullable, type moved into branches',
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        pick: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
        opt: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }], description: 'optional' },
        typed: { type: 'string', anyOf: [{ minLength: 1 }, { type: 'string', pattern: '^x' }] },
      },
    },
    output: {
      type: 'object',
      properties: {
        pick: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        both: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'] },
        opt: { description: 'optional', nullable: true, type: 'string', maxLength: 5 },
        typed: {
          anyOf: [
            { type: 'string', minLength: 1 },
            { type: 'string', pattern: '^x' },
          ],
        },
      },
    },
    changes: [
      'rewritten /properties/pick/oneOf',
      'inlined /properties/both/allOf',
      'rewritten /properties/opt/anyOf',
      'rewritten /properties/typed/type',
    ],
  },
  {
    name: "removes what Gemini's Schema has no field for, formats it does not know, and stray required names",
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        big: { type: 'integer', format: 'int64', multipleOf: 2 },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
        map: {
          type: 'object',
          additionalProperties: { type: 'string' },
          patternProperties: { '^x': { type: 'string' } },
        },
        no: { not: { type: 'null' }, examples: ['a'], deprecated: true },
      },
      required: ['url', 'ghost'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
        big: { type: 'integer', format: 'int64' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        map: { type: 'object' },
        no: {},
      },
      required: ['url'],
    },
    changes: [
      'removed /properties/url/format',
      'removed /properties/big/multipleOf',
      'removed /properties/tags/uniqueItems',
      'removed /properties/map/additionalProperties',
      'removed /properties/map/patternProperties',
      'removed /properties/no/not',
      'removed /properties/no/examples',
      'removed /properties/no/deprecated',
      'rewritten /required',
      'removed /additionalProperties',
    ],
  },
  {
    name: 'tuples and bare arrays get one items schema; true becomes {}',
    profiles: ['gemini'],
    input: {
      type: 'object',
      properties: {
        point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], minItems: 2 },
        old: { type: 'array', items: [{ type: 'boolean' }] },
        bare: { type: 'array' },
        any: true,
      },
    },
    output: {
      type: 'object',
      properties: {
        point: { type: 'array', minItems: 2, items: { anyOf: [{ type: 'number' }, { type: 'string' }] } },
        old: { type: 'array', items: { type: 'boolean' } },
        bare: { type: 'array', items: {} },
        any: {},
      },
    },
    changes: [
      'rewritten /properties/point/prefixItems',
      'rewritten /properties/old/items',
      'rewritten /properties/bare/items',
      'rewritten /properties/any',
    ],
  },
  {
    name: 'flattens a nullable top level with object alternatives',
    profiles: ['gemini'],
    input: {
      type: ['object', 'null'],
      anyOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'string' } }, required: ['b'] },
      ],
    },
    output: { type: 'object', nullable: true, properties: { a: { type: 'string' }, b: { type: 'string' } } },
    changes: ['rewritten /type', 'rewritten /anyOf'],
  },
];

describe('cleanSchema', () => {
  for (const row of [...COMMON, ...OPENAI, ...ANTHROPIC, ...GEMINI]) {
    for (const profile of row.profiles) {
      it(`${profile}: ${row.name}`, () => {
        const { schema, changes } = clean(row.input, profile);
        expect(schema).toStrictEqual(row.output);
        expect(brief(changes)).toEqual(row.changes);
      });
    }
  }

  it('gives every change its keyword, and details for the bounds', () => {
    const { changes } = clean(
      {
        type: 'object',
        properties: { n: { type: 'integer', exclusiveMinimum: 0 }, r: { type: 'number', exclusiveMaximum: 1 } },
      },
      'anthropic',
    );
    expect(changes).toEqual([
      {
        path: '/properties/n/exclusiveMinimum',
        action: 'rewritten',
        keyword: 'exclusiveMinimum',
        detail: 'exclusiveMinimum 0 ⇒ minimum 1 (exact for integers)',
      },
      {
        path: '/properties/r/exclusiveMaximum',
        action: 'rewritten',
        keyword: 'exclusiveMaximum',
        detail: 'exclusiveMaximum 1 ⇒ maximum 1; "must be < 1" added to description',
      },
    ]);
  });

  it('escapes property names in change paths as JSON pointers', () => {
    const { changes } = clean(
      { type: 'object', properties: { 'a/b~c': { type: 'integer', exclusiveMinimum: 0 } } },
      'openai',
    );
    expect(changes.map((change) => change.path)).toEqual(['/properties/a~1b~0c/exclusiveMinimum']);
  });

  it.each(PROFILES)('%s: anything that is not an object schema becomes an empty object schema', (profile) => {
    for (const input of [undefined, null, 'x', 3, true, [{ type: 'object' }]]) {
      const { schema, changes } = cleanSchema(input, profile);
      expect(schema).toStrictEqual({ type: 'object', properties: {} });
      expect(changes).toMatchObject([{ path: '/type', action: 'rewritten', keyword: 'type' }]);
    }
  });

  it.each(PROFILES)('%s: an already clean schema comes back equal, with no changes', (profile) => {
    const input = {
      type: 'object',
      properties: { path: { type: 'string', description: 'file' }, lines: { type: 'integer', minimum: 1 } },
      required: ['path'],
    };
    expect(clean(input, profile)).toEqual({ schema: input, changes: [] });
  });

  it('keeps a property named __proto__ as a property', () => {
    const input = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"integer","exclusiveMinimum":0}}}',
    ) as Record<string, unknown>;
    for (const profile of PROFILES) {
      const { schema } = clean(input, profile);
      const properties = schema.properties as Record<string, unknown>;
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({ type: 'integer', minimum: 1 });
    }
  });

  it('gemini: stops inlining after the budget, so a schema that doubles at each level stays bounded', () => {
    const levels = 12; // 2^12 uses of the last definition if everything were inlined
    const $defs: Record<string, unknown> = { [`D${levels}`]: { type: 'string' } };
    for (let i = 0; i < levels; i++)
      $defs[`D${i}`] = {
        type: 'object',
        properties: { l: { $ref: `#/$defs/D${i + 1}` }, r: { $ref: `#/$defs/D${i + 1}` } },
      };
    const { schema, changes } = clean({ type: 'object', properties: { top: { $ref: '#/$defs/D0' } }, $defs }, 'gemini');
    expect(changes.filter((change) => change.action === 'inlined')).toHaveLength(INLINE_BUDGET);
    expect(changes.some((change) => change.detail?.includes('over the budget'))).toBe(true);
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });
});

const tool = (name: string, fields: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...fields,
});

const CATALOGUE = deepFreeze([
  {
    name: 'mcp__fs__read',
    server: 'fs',
    tool: 'read',
    definition: tool('read', { description: 'Read a file', title: 'Read' }),
  },
  {
    name: 'mcp__fs__stat',
    server: 'fs',
    tool: 'stat',
    definition: tool('stat', { title: 'Stat a path', annotations: { title: 'ignored' } }),
  },
  {
    name: 'mcp__fs__tree',
    server: 'fs',
    tool: 'tree',
    definition: tool('tree', { description: '  ', annotations: { title: 'Tree view' } }),
  },
  {
    name: 'mcp__fs__head',
    server: 'fs',
    tool: 'head',
    definition: tool('head', {
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
      },
    }),
  },
  {
    name: 'mcp__fs__ping',
    server: 'fs',
    tool: 'ping',
    definition: tool('ping', { description: 'Ping', inputSchema: { type: 'object' } }),
  },
]);

const Q = { type: 'object', properties: { q: { type: 'string' } } };
const HEAD = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } };
const HEAD_CHANGES = [
  {
    name: 'mcp__fs__head',
    changes: [
      expect.objectContaining({ path: '/$schema' }),
      expect.objectContaining({ path: '/properties/n/exclusiveMinimum' }),
    ],
  },
];

describe('tool exports', () => {
  it('toOpenAITools: function tools with description (or title) and cleaned parameters', () => {
    expect(toOpenAITools(CATALOGUE)).toStrictEqual({
      tools: [
        { type: 'function', function: { name: 'mcp__fs__read', description: 'Read a file', parameters: Q } },
        { type: 'function', function: { name: 'mcp__fs__stat', description: 'Stat a path', parameters: Q } },
        { type: 'function', function: { name: 'mcp__fs__tree', description: 'Tree view', parameters: Q } },
        { type: 'function', function: { name: 'mcp__fs__head', parameters: HEAD } },
        {
          type: 'function',
          function: { name: 'mcp__fs__ping', description: 'Ping', parameters: { type: 'object', properties: {} } },
        },
      ],
      changes: [
        ...HEAD_CHANGES,
        { name: 'mcp__fs__ping', changes: [expect.objectContaining({ path: '/properties' })] },
      ],
    });
  });

  it('toAnthropicTools: name, description, input_schema', () => {
    expect(toAnthropicTools(CATALOGUE)).toStrictEqual({
      tools: [
        { name: 'mcp__fs__read', description: 'Read a file', input_schema: Q },
        { name: 'mcp__fs__stat', description: 'Stat a path', input_schema: Q },
        { name: 'mcp__fs__tree', description: 'Tree view', input_schema: Q },
        { name: 'mcp__fs__head', input_schema: HEAD },
        { name: 'mcp__fs__ping', description: 'Ping', input_schema: { type: 'object' } },
      ],
      changes: HEAD_CHANGES,
    });
  });

  it('toGeminiFunctionDeclarations: parameters left out for a tool without properties', () => {
    expect(toGeminiFunctionDeclarations(CATALOGUE)).toStrictEqual({
      functionDeclarations: [
        { name: 'mcp__fs__read', description: 'Read a file', parameters: Q },
        { name: 'mcp__fs__stat', description: 'Stat a path', parameters: Q },
        { name: 'mcp__fs__tree', description: 'Tree view', parameters: Q },
        { name: 'mcp__fs__head', parameters: HEAD },
        { name: 'mcp__fs__ping', description: 'Ping' },
      ],
      changes: HEAD_CHANGES,
    });
  });

  it('applies the profile the caller chooses', () => {
    const entry = deepFreeze({
      name: 't',
      definition: tool('t', {
        inputSchema: { type: 'object', properties: { m: { type: 'object', additionalProperties: true } } },
      }),
    });
    expect(toOpenAITools([entry]).tools[0]!.function.parameters).toEqual({
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: true } },
    });
    const asGemini = toOpenAITools([entry], { profile: 'gemini' });
    expect(asGemini.tools[0]!.function.parameters).toEqual({ type: 'object', properties: { m: { type: 'object' } } });
    expect(asGemini.changes).toEqual([
      {
        name: 't',
        changes: [expect.objectContaining({ path: '/properties/m/additionalProperties', action: 'removed' })],
      },
    ]);
  });
});
