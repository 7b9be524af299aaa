/**
 * The JSON Schema formats mcpwire checks (`src/protocol/schema-formats.ts`), table-driven: each
 * format's valid and invalid strings by its RFC (real calendar days, offsets and leap seconds,
 * dot-atom emails, RFC 1123 host names, IPv4 octets, IPv6 groups and `::`, RFC 3986 URIs and
 * references, RFC 4122 UUIDs); and an Ajv instance of each dialect given them refuses a string
 * out of format, lets other types through, and does not check a format not in the list.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { addSchemaFormats, SCHEMA_FORMATS, type SchemaFormat } from '../src/protocol/schema-formats.js';

const VALID: Record<SchemaFormat, string[]> = {
  date: ['2024-02-29', '2000-02-29', '2023-12-31', '0000-01-01'],
  time: ['12:00:00Z', '12:00:00z', '12:00:00.123+02:00', '23:59:60Z', '15:59:60-08:00', '00:00:00-23:59'],
  'date-time': ['2024-02-29T12:00:00Z', '2024-02-29t12:00:00z', '2024-02-29 12:00:00.5+01:00'],
  email: ['a@b.co', 'a.b+c@example.com', "o'hara@example.org", 'a@localhost', 'x@xn--bcher-kva.example'],
  hostname: ['example.com', 'a', 'example.com.', 'xn--bcher-kva.example', `${'a'.repeat(63)}.com`],
  ipv4: ['1.2.3.4', '0.0.0.0', '255.255.255.255'],
  ipv6: ['::', '::1', '2001:db8::1', '1:2:3:4:5:6:7:8', '::ffff:1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7::'],
  uri: [
    'https://example.com/a?b=c#d',
    'urn:isbn:0451450523',
    'mailto:a@b.co',
    'file:///tmp/x',
    'http://[::1]:8080/',
    'http://[v1.x]/',
    'http://user:pw@host:80/p',
    'http://a/%41',
    'x:',
    'tag:example.com,2024:a/b?c',
  ],
  'uri-reference': ['', '/a/b', 'a/b?c#d', '#frag', '//host/path', 'a:b', './a:b', '../x', 'https://example.com/'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000'],
};

const INVALID: Record<SchemaFormat, string[]> = {
  date: ['2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-1-01', '2024-01-01T00:00:00Z', ''],
  time: ['12:00:00', '24:00:00Z', '12:60:00Z', '12:59:60Z', '12:00:00+24:00', '12:00Z', '1:00:00Z'],
  'date-time': ['2024-02-30T12:00:00Z', '2024-02-29T12:00:00', '2024-02-29', '2024-02-29X12:00:00Z', 'now'],
  email: [
    '.a@b.co',
    'a.@b.co',
    'a..b@b.co',
    'a b@b.co',
    'a@-b.co',
    'a@b.co.',
    '@b.co',
    'a@',
    'a',
    'a@b_c.com',
    `${'a'.repeat(65)}@b.co`,
  ],
  hostname: [
    '',
    '-a.com',
    'a-.com',
    'a_b.com',
    `${'a'.repeat(64)}.com`,
    'a..b',
    `${'a.'.repeat(127)}ab`,
    'exa mple.com',
  ],
  ipv4: ['256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '1.2.3.-4', ' 1.2.3.4'],
  ipv6: [
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'fe80::1%eth0',
    '12345::',
    'g::1',
    '1:2:3:4:5:6:7',
    ':1',
    '1.2.3.4',
    '::1.2.3',
    '',
  ],
  uri: [
    'http://exa mple.com',
    '/relative',
    'a/b',
    'http://a/%zz',
    'http://a/b#c#d',
    'http://a:b/',
    'http://a/[b]',
    'http://[::1/',
    'http://[zz]/',
    '1http://a',
    'http://a/\u00e9',
    '',
  ],
  'uri-reference': ['a b', '%zz', 'a:b c', '#a#b', '1a:b/c:d e'],
  uuid: [
    '123e4567e89b12d3a456426614174000',
    '123e4567-e89b-12d3-a456-42661417400',
    'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    'g23e4567-e89b-12d3-a456-426614174000',
  ],
};

describe.each(Object.keys(SCHEMA_FORMATS) as SchemaFormat[])('format "%s"', (format) => {
  it.each(VALID[format])('accepts %j', (value) => expect(SCHEMA_FORMATS[format](value)).toBe(true));
  it.each(INVALID[format])('refuses %j', (value) => expect(SCHEMA_FORMATS[format](value)).toBe(false));
});

describe.each([
  ['draft-07', 'ajv'],
  ['2019-09', 'ajv/dist/2019.js'],
  ['2020-12', 'ajv/dist/2020.js'],
])('an Ajv instance of %s given addSchemaFormats', (_dialect, module) => {
  const Ajv = (createRequire(import.meta.url)(module) as { default: new (o: object) => any }).default;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  addSchemaFormats(ajv);
  const validate = ajv.compile({
    type: 'object',
    properties: {
      email: { format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      other: { type: 'string', format: 'made-up' },
    },
  });

  it('refuses each string out of its format', () => {
    expect(validate({ email: 'not an email', site: 'example.com', day: '2024-02-30' })).toBe(false);
    expect(validate.errors.map((e: any) => [e.instancePath, e.keyword]).sort()).toEqual([
      ['/day', 'format'],
      ['/email', 'format'],
      ['/site', 'format'],
    ]);
  });

  it('accepts strings in format, values of other types, and any string for a format it does not check', () => {
    expect(validate({ email: 'a@b.co', site: 'https://example.com', day: '2024-02-29', other: '%%%' })).toBe(true);
    expect(validate({ email: 42 })).toBe(true);
  });
});
