/**
 * The kit's two JSON Schema engines — Ajv where code generation works, `@cfworker/json-schema`
 * where it does not (Workers, strict CSP) — report the same problems for the same schemas and
 * values: the same paths and messages (the no-eval engine's findings in Ajv's words), the same
 * refusal of a schema that is not valid, the same acceptance of a value that conforms.
 */
import { describe, expect, it } from 'vitest';
import { installNoEvalCompiler } from '../src/protocol/schema-engines.js';
import { compileWithoutEval } from '../src/protocol/schema-no-eval.js';
import type { JsonSchema } from '../src/protocol/types.js';
import { compileSchema, type SchemaProblem } from '../src/server/schema-validator.js';

installNoEvalCompiler(compileWithoutEval);

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const D2019 = 'https://json-schema.org/draft/2019-09/schema';

const task: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 5 },
    priority: { type: 'integer', minimum: 1, maximum: 3 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    tag: { type: 'string', pattern: '^[a-z]+$' },
    state: { enum: ['open', 'done'] },
    kind: { const: 'task' },
    'odd/key~name': { type: 'boolean' },
  },
  required: ['title', 'user_id'],
  additionalProperties: false,
};

/** [what, schema, values]: every value is run through both engines. */
const CASES: Array<[string, JsonSchema, unknown[]]> = [
  [
    'object keywords (required, additionalProperties: false, escaped keys)',
    task,
    [
      { title: 'ok', user_id: 1 },
      { title: '', priority: 0, ratio: 1, tag: 'A1', state: 'gone', kind: 'bug', 'odd/key~name': 1, extra: 1 },
      { title: 'far too long', priority: 4, ratio: 0.3, user_id: 2 },
      'not an object',
      null,
    ],
  ],
  [
    'arrays (items, minItems, maxItems, uniqueItems) and nesting',
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
        owner: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      },
    },
    [{ tags: ['a'] }, { tags: [] }, { tags: ['a', 'a', 1, 'b'] }, { owner: {} }, { owner: { id: 'x' } }],
  ],
  [
    'type lists, anyOf, oneOf, not',
    {
      type: 'object',
      properties: {
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        one: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] },
        nullable: { type: ['string', 'null'] },
        never: { not: { type: 'string' } },
      },
    },
    [
      { either: 'x', one: -1.5, nullable: null, never: 1 },
      { either: true },
      { one: 2 },
      { nullable: 1 },
      { never: 'x' },
    ],
  ],
  [
    'formats (the kit checks the common ones)',
    {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        id: { type: 'string', format: 'uuid' },
      },
    },
    [
      { email: 'ada@example.com', site: 'https://example.com', day: '2024-02-29', id: crypto.randomUUID() },
      { email: 'ada at example', site: 'example.com', day: '2024-02-30', id: 'nope' },
    ],
  ],
  [
    'local $ref into $defs',
    { $defs: { name: { type: 'string', maxLength: 2 } }, type: 'object', properties: { a: { $ref: '#/$defs/name' } } },
    [{ a: 'ab' }, { a: 'abc' }, { a: 1 }],
  ],
  [
    'draft-07: a tuple in items, additionalItems closes it',
    {
      $schema: DRAFT_07,
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
    },
    [{ pair: ['a', 1] }, { pair: [1, 'a'] }],
  ],
  [
    '2019-09: dependentRequired',
    { $schema: D2019, type: 'object', dependentRequired: { from: ['to'] } },
    [{ from: 1, to: 2 }, { from: 1 }],
  ],
];

function sorted(problems: SchemaProblem[]): SchemaProblem[] {
  return [...problems].sort((a, b) => `${a.path} ${a.message}`.localeCompare(`${b.path} ${b.message}`));
}

describe('the kit reports the same problems with Ajv and without code generation', () => {
  for (const [what, schema, values] of CASES)
    it(what, () => {
      const ajv = compileSchema(schema, 'case', 'ajv');
      const noEval = compileSchema(schema, 'case', 'no-eval');
      for (const value of values) expect(sorted(noEval(value)), JSON.stringify(value)).toEqual(sorted(ajv(value)));
      // The cases are not vacuous: some value of each breaks the schema.
      expect(values.some((value) => ajv(value).length > 0)).toBe(true);
    });

  it('refuses a schema that is not valid at registration, on both engines', () => {
    const broken: JsonSchema[] = [
      { type: 'object', properties: { n: { type: 'string', minLength: -1 } } },
      { type: 'strin' },
      { type: 'object', required: 'id' },
      { type: 'string', pattern: '(' },
      { type: 'array', items: [{ type: 'string' }] },
    ];
    for (const schema of broken)
      for (const engine of ['ajv', 'no-eval'] as const)
        expect(
          () => compileSchema(schema, 'tool "t" inputSchema', engine),
          `${engine} ${JSON.stringify(schema)}`,
        ).toThrow(/tool "t" inputSchema is not a valid JSON Schema/);
  });
});
