/**
 * The error model: `reason` is kept apart from the formatted `message`, so no code strips a
 * prefix; the peer's `data` holds only what the peer sent; what we know locally lives in the typed
 * fields of `HttpError`, `SizeLimitError`, `ConfigError`, `PermissionError` and
 * `OutputSchemaError`, each with a stable code, in `toJSON` (bounded), and scrubbed of secrets
 * like the message. `errorMessage` is the one way to get the text of anything thrown.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { OutputSchemaError, type OutputSchemaProblem } from '../src/client/output-schema.js';
import { redactError } from '../src/manager/error-redaction.js';
import { PermissionError } from '../src/manager/permissions/permission-rules.js';
import type { PermissionVerdict } from '../src/manager/permissions/permission-rules.js';
import { ConfigError, errorMessage, HttpError, McpError, SizeLimitError } from '../src/protocol/errors.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

const VERDICT: PermissionVerdict = {
  decision: 'deny',
  rule: { pattern: 'mcp__fs__rm', list: 'deny', file: '/home/u/.mcp.json', scope: 'user' },
  reason: 'deny by rule "mcp__fs__rm"',
};

describe('McpError: reason and message', () => {
  it.each<[string, ConstructorParameters<typeof McpError>[2], string]>([
    ['server and method', { server: 'fs', method: 'tools/call' }, 'server "fs": tools/call timed out after 30000 ms'],
    ['server only', { server: 'fs' }, 'server "fs": timed out after 30000 ms'],
    ['method only', { method: 'tools/call' }, 'tools/call timed out after 30000 ms'],
    ['neither', {}, 'timed out after 30000 ms'],
  ])('%s: the reason stays bare, the message is formatted from it', (_what, details, message) => {
    const error = new McpError('TIMEOUT', 'timed out after 30000 ms', details);
    expect(error.reason).toBe('timed out after 30000 ms');
    expect(error.message).toBe(message);
  });

  it('no code in src/ strips a "server" prefix off a message to get the reason back', () => {
    const stripping = sourceFiles(SRC).filter((file) => /replace\(\s*\/\^server/.test(readFileSync(file, 'utf8')));
    expect(stripping.map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('toJSON never holds the whole peer text (rpcMessage), only the bounded message', () => {
    const error = new McpError('SERVER_ERROR', 'failed: huge… (-32000)', {
      rpcCode: -32000,
      rpcMessage: 'x'.repeat(100_000),
      data: { peer: true },
    });
    expect(error.toJSON()).toEqual({
      code: 'SERVER_ERROR',
      message: 'failed: huge… (-32000)',
      rpcCode: -32000,
      data: { peer: true },
    });
  });
});

describe('errorMessage', () => {
  const throwing = {
    toString() {
      throw new Error('no');
    },
  };
  it.each<[string, unknown, string]>([
    ['an Error', new TypeError('bad thing'), 'bad thing'],
    [
      'an McpError: its formatted message',
      new McpError('TIMEOUT', 'timed out', { server: 's' }),
      'server "s": timed out',
    ],
    ['a string', 'plain', 'plain'],
    ['a number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['a symbol', Symbol('s'), 'Symbol(s)'],
    ['an object', { a: 1 }, '[object Object]'],
    ['an object whose toString throws', throwing, '[object Object]'],
  ])('%s', (_what, value, text) => {
    expect(errorMessage(value)).toBe(text);
  });
});

/** The facts of the 401 the typed-error tests build an HttpError from. */
const HTTP_FACTS = {
  server: 'h',
  method: 'initialize',
  url: 'https://h/mcp',
  status: 401,
  challenge: [{ scheme: 'bearer', params: { resource_metadata: 'https://h/.well-known/oauth-protected-resource' } }],
};

describe('the typed errors', () => {
  it('each is an McpError with its stable code, its own name, no data of ours, and its facts in toJSON', () => {
    const http = new HttpError('AUTH_REQUIRED', 'HTTP 401 from https://h/mcp: authorization required', HTTP_FACTS);
    const size = new SizeLimitError('response body exceeds 10 bytes', {
      limit: 10,
      size: 20,
      url: 'https://h/mcp',
      method: 'tools/list',
    });
    const config = new ConfigError('url must be string', { file: '/repo/.mcp.json', server: 'db', field: 'url' });
    const permission = new PermissionError('mcp__fs__rm is denied', {
      server: 'fs',
      method: 'tools/call',
      verdict: VERDICT,
    });
    const schema = new OutputSchemaError('tool "t" returned structuredContent that does not match', {
      server: 's',
      method: 'tools/call',
      tool: 't',
      problems: [{ instancePath: '/a', keyword: 'type', message: 'must be string' }],
    });
    for (const [error, code, name] of [
      [http, 'AUTH_REQUIRED', 'HttpError'],
      [size, 'TRANSPORT', 'SizeLimitError'],
      [config, 'CONFIG_INVALID', 'ConfigError'],
      [permission, 'PERMISSION_DENIED', 'PermissionError'],
      [schema, 'OUTPUT_SCHEMA_MISMATCH', 'OutputSchemaError'],
    ] as const) {
      expect(error).toBeInstanceOf(McpError);
      expect(api.isMcpError(error, code)).toBe(true);
      expect(error.name).toBe(name);
      expect(error.data).toBeUndefined();
      expect(String(error.stack)).toMatch(new RegExp(`^${name}: `));
    }
    expect(http.toJSON()).toEqual({
      code: 'AUTH_REQUIRED',
      message: 'server "h": initialize HTTP 401 from https://h/mcp: authorization required',
      ...HTTP_FACTS,
      unreachable: false,
      resend: 'never',
    });
    expect(size.toJSON()).toEqual({
      code: 'TRANSPORT',
      message: 'tools/list response body exceeds 10 bytes',
      method: 'tools/list',
      limit: 10,
      size: 20,
      option: 'maxMessageBytes',
      url: 'https://h/mcp',
    });
    expect(config.toJSON()).toEqual({
      code: 'CONFIG_INVALID',
      message: '/repo/.mcp.json: server "db": url must be string',
      server: 'db',
      file: '/repo/.mcp.json',
      field: 'url',
    });
    expect(permission.toJSON()).toMatchObject({ code: 'PERMISSION_DENIED', verdict: VERDICT });
    expect(schema.toJSON()).toMatchObject({
      tool: 't',
      problems: [{ instancePath: '/a', keyword: 'type', message: 'must be string' }],
    });
  });

  it('the main entry exports every typed error class', () => {
    expect([api.HttpError, api.SizeLimitError, api.ConfigError, api.PermissionError, api.OutputSchemaError]).toEqual([
      HttpError,
      SizeLimitError,
      ConfigError,
      PermissionError,
      OutputSchemaError,
    ]);
  });

  it('HttpError: not unreachable and never re-sent unless said', () => {
    const error = new HttpError('TRANSPORT', 'HTTP 500 from https://h/mcp', { url: 'https://h/mcp', status: 500 });
    expect(error).toMatchObject({ unreachable: false, resend: 'never', challenge: undefined, body: undefined });
  });

  it.each<[string, ConstructorParameters<typeof ConfigError>[1], string]>([
    [
      'file, line and column lead',
      { file: '/a/mcp.yaml', line: 3, column: 7 },
      '/a/mcp.yaml:3:7: invalid YAML: bad indentation',
    ],
    [
      'file and server',
      { file: '/a/.mcp.json', server: 'db' },
      '/a/.mcp.json: server "db": invalid YAML: bad indentation',
    ],
    ['a server without a file: the usual prefix', { server: 'db' }, 'server "db": invalid YAML: bad indentation'],
    ['nothing known', {}, 'invalid YAML: bad indentation'],
  ])('ConfigError message: %s', (_what, details, message) => {
    const error = new ConfigError('invalid YAML: bad indentation', details);
    expect(error.message).toBe(message);
    expect(error.reason).toBe('invalid YAML: bad indentation');
  });

  it('OutputSchemaError keeps every problem, and toJSON lists 20 of them, each quoted within bounds', () => {
    const problems: OutputSchemaProblem[] = Array.from({ length: 500 }, (_, i) => ({
      instancePath: `/items/${i}`,
      keyword: 'pattern',
      message: `must match pattern "${'a'.repeat(10_000)}"`,
    }));
    const error = new OutputSchemaError('does not match', { tool: 't', problems });
    expect(error.problems).toHaveLength(500);
    const json = error.toJSON();
    expect(json.problems).toHaveLength(20);
    expect(json.problemCount).toBe(500);
    expect(JSON.stringify(json).length).toBeLessThan(20 * 400);
  });
});

describe('redaction of typed facts', () => {
  it("scrubs the reason and a subclass's string and object facts in place, keeping class, code and names", () => {
    const secret = 'sk-live-abcdef123456';
    const error = new HttpError('AUTH_REQUIRED', `HTTP 401: ${secret}`, {
      server: 'remote',
      method: 'tools/call',
      url: 'https://h/mcp',
      status: 401,
      body: `bad token ${secret}`,
      challenge: [{ scheme: 'bearer', params: { error_description: `token ${secret} expired` } }],
    });
    expect(redactError(error, [secret])).toBe(error);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      code: 'AUTH_REQUIRED',
      server: 'remote',
      method: 'tools/call',
      status: 401,
      url: 'https://h/mcp',
    });
    expect(error.reason).toBe('HTTP 401: ***');
    expect(error.body).toBe('bad token ***');
    expect(error.challenge).toEqual([{ scheme: 'bearer', params: { error_description: 'token *** expired' } }]);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(error.message).not.toContain(secret);
  });
});
