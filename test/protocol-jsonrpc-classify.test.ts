/**
 * The one JSON-RPC parser (`classifyMessage`/`classifyPayload`) and the `make*` builders:
 * every kind, every invalid reason, batches, and that what the builders make is valid on the wire.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Classified,
  classifyMessage,
  classifyPayload,
  makeErrorResponse,
  makeNotification,
  makeRequest,
  makeResponse,
} from '../src/protocol/jsonrpc.js';
import { hasSchema, missingSchemaMessage, validateDefinition } from './kit/spec-schemas.js';

type Row = [label: string, value: unknown, kind: Classified['kind']];

const valid: Row[] = [
  ['request with an integer id', { jsonrpc: '2.0', id: 1, method: 'ping' }, 'request'],
  ['request with id 0', { jsonrpc: '2.0', id: 0, method: 'ping' }, 'request'],
  ['request with a negative id', { jsonrpc: '2.0', id: -7, method: 'ping' }, 'request'],
  ['request with a string id', { jsonrpc: '2.0', id: 'abc', method: 'tools/list' }, 'request'],
  ['request with an empty string id', { jsonrpc: '2.0', id: '', method: 'tools/list' }, 'request'],
  ['request with object params', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }, 'request'],
  ['request with array params', { jsonrpc: '2.0', id: 2, method: 'sum', params: [1, 2] }, 'request'],
  ['notification without params', { jsonrpc: '2.0', method: 'notifications/initialized' }, 'notification'],
  [
    'notification with params',
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    'notification',
  ],
  ['response', { jsonrpc: '2.0', id: 3, result: {} }, 'response'],
  ['response with a string id', { jsonrpc: '2.0', id: 'x', result: { tools: [] } }, 'response'],
  ['error response', { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } }, 'error'],
  [
    'error response with data',
    { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad', data: { why: 1 } } },
    'error',
  ],
  [
    'error response with a null id',
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    'error',
  ],
];

describe('classifyMessage: valid messages', () => {
  it.each(valid)('%s → %s, the same object', (_label, value, kind) => {
    const classified = classifyMessage(value);
    expect(classified.kind).toBe(kind);
    expect('message' in classified && classified.message).toBe(value);
  });

  it('reads an error response without an id as id null, without touching the original', () => {
    const value = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    const classified = classifyMessage(value);
    expect(classified).toEqual({
      kind: 'error',
      message: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    });
    expect('id' in value).toBe(false);
  });
});

const ID = 'field "id" must be a string or an integer';
const PARAMS = 'field "params" must be an object or an array';

/** label, value, exact reason, the id the result carries (undefined = none). */
const invalid: Array<[string, unknown, string, (string | number)?]> = [
  ['a number', 42, 'message is not a JSON object'],
  ['a string', '{"jsonrpc":"2.0"}', 'message is not a JSON object'],
  ['null', null, 'message is not a JSON object'],
  ['an array', [{ jsonrpc: '2.0', method: 'x' }], 'a batch is not a single message'],
  ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'ping' }, 'field "jsonrpc" must be "2.0"', 1],
  ['jsonrpc as the number 2', { jsonrpc: 2, id: 'a', method: 'ping' }, 'field "jsonrpc" must be "2.0"', 'a'],
  ['jsonrpc missing', { id: 1, result: {} }, 'field "jsonrpc" must be "2.0"', 1],
  ['a non-string method', { jsonrpc: '2.0', id: 1, method: 42 }, 'field "method" must be a string', 1],
  ['a null method', { jsonrpc: '2.0', method: null }, 'field "method" must be a string'],
  [
    'method with result',
    { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
    'a message with "method" must not carry "result" or "error"',
    1,
  ],
  [
    'method with error',
    { jsonrpc: '2.0', id: 1, method: 'ping', error: { code: 1, message: 'x' } },
    'a message with "method" must not carry "result" or "error"',
    1,
  ],
  ['params as a string', { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' }, PARAMS, 1],
  ['params as null', { jsonrpc: '2.0', id: 1, method: 'ping', params: null }, PARAMS, 1],
  ['params as a number', { jsonrpc: '2.0', method: 'n', params: 3 }, PARAMS],
  ['params as a boolean', { jsonrpc: '2.0', method: 'n', params: true }, PARAMS],
  ['a null id on a request', { jsonrpc: '2.0', id: null, method: 'ping' }, ID],
  ['a float id on a request', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, ID],
  ['a boolean id on a request', { jsonrpc: '2.0', id: true, method: 'ping' }, ID],
  ['an object id on a request', { jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }, ID],
  [
    'result and error together',
    { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
    'a response must not carry both "result" and "error"',
    1,
  ],
  ['a response without an id', { jsonrpc: '2.0', result: {} }, ID],
  ['a response with a null id', { jsonrpc: '2.0', id: null, result: {} }, ID],
  ['a response with a float id', { jsonrpc: '2.0', id: 2.5, result: {} }, ID],
  ['a result that is an array', { jsonrpc: '2.0', id: 1, result: [] }, 'field "result" must be an object', 1],
  ['a result that is null', { jsonrpc: '2.0', id: 1, result: null }, 'field "result" must be an object', 1],
  ['a result that is a string', { jsonrpc: '2.0', id: 1, result: 'ok' }, 'field "result" must be an object', 1],
  [
    'an error response with a float id',
    { jsonrpc: '2.0', id: 1.5, error: { code: 1, message: 'x' } },
    'field "id" must be a string, an integer or null',
  ],
  ['an error that is a string', { jsonrpc: '2.0', id: 1, error: 'boom' }, 'field "error" must be an object', 1],
  ['an error that is null', { jsonrpc: '2.0', id: 1, error: null }, 'field "error" must be an object', 1],
  [
    'error.code a float',
    { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
    'field "error.code" must be an integer',
    1,
  ],
  [
    'error.code a string',
    { jsonrpc: '2.0', id: 1, error: { code: '-32600', message: 'x' } },
    'field "error.code" must be an integer',
    1,
  ],
  [
    'error.code missing',
    { jsonrpc: '2.0', id: 1, error: { message: 'x' } },
    'field "error.code" must be an integer',
    1,
  ],
  [
    'error.message missing',
    { jsonrpc: '2.0', id: 1, error: { code: -32600 } },
    'field "error.message" must be a string',
    1,
  ],
  [
    'error.message not a string',
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 7 } },
    'field "error.message" must be a string',
  ],
  ['none of method, result, error', { jsonrpc: '2.0', id: 1 }, 'message has none of "method", "result" or "error"', 1],
  ['an empty object', {}, 'field "jsonrpc" must be "2.0"'],
];

describe('classifyMessage: invalid messages', () => {
  it.each(invalid)('%s', (_label, value, reason, id) => {
    const classified = classifyMessage(value);
    const expected = id === undefined ? { kind: 'invalid', reason, value } : { kind: 'invalid', reason, id, value };
    expect(classified).toStrictEqual(expected);
  });
});

describe('classifyPayload', () => {
  it('wraps a single message in a one-element list', () => {
    expect(classifyPayload({ jsonrpc: '2.0', id: 1, result: {} }).map((c) => c.kind)).toEqual(['response']);
    expect(classifyPayload('junk').map((c) => c.kind)).toEqual(['invalid']);
  });

  it('splits a batch into one entry per element, in order, invalid ones included', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'no' } },
      7,
      [{ jsonrpc: '2.0', method: 'nested' }],
    ];
    const classified = classifyPayload(batch);
    expect(classified.map((c) => c.kind)).toEqual([
      'request',
      'notification',
      'response',
      'error',
      'invalid',
      'invalid',
    ]);
    expect(classified[0]).toEqual({ kind: 'request', message: batch[0] });
    expect(classified[5]).toMatchObject({ reason: 'a batch is not a single message' });
  });

  it('reports an empty batch as one invalid entry', () => {
    expect(classifyPayload([])).toEqual([
      { kind: 'invalid', reason: 'an empty batch is not a valid message', value: [] },
    ]);
  });
});

describe('builders', () => {
  it('makeRequest omits params when undefined', () => {
    expect(makeRequest(1, 'ping')).toStrictEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(makeRequest('a', 'tools/call', { name: 'x' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/call',
      params: { name: 'x' },
    });
  });

  it('makeNotification never carries an id', () => {
    expect(makeNotification('notifications/initialized')).toStrictEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    const withParams = makeNotification('notifications/cancelled', { requestId: 1 });
    expect(withParams).toStrictEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect('id' in withParams).toBe(false);
  });

  it('makeResponse and makeErrorResponse build the two response shapes, omitting absent data', () => {
    expect(makeResponse(3, { ok: true })).toStrictEqual({ jsonrpc: '2.0', id: 3, result: { ok: true } });
    expect(makeErrorResponse(4, -32601, 'Method not found')).toStrictEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Method not found' },
    });
    expect(makeErrorResponse(null, -32700, 'Parse error', { at: 3 })).toStrictEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error', data: { at: 3 } },
    });
  });
});

const id = fc.oneof(fc.string(), fc.integer());
const method = fc.string();
const objectParams = fc.dictionary(fc.string(), fc.jsonValue());
const params = fc.option(fc.oneof(objectParams, fc.array(fc.jsonValue())), { nil: undefined });
const error = fc.record({
  code: fc.integer(),
  message: fc.string(),
  data: fc.option(fc.jsonValue(), { nil: undefined }),
});

describe('property: built messages classify as their own kind, as the same object', () => {
  it('requests, notifications, responses and error responses', () => {
    const built = fc.oneof(
      fc.tuple(id, method, params).map(([i, m, p]) => ({ kind: 'request' as const, message: makeRequest(i, m, p) })),
      fc.tuple(method, params).map(([m, p]) => ({ kind: 'notification' as const, message: makeNotification(m, p) })),
      fc.tuple(id, objectParams).map(([i, r]) => ({ kind: 'response' as const, message: makeResponse(i, r) })),
      fc
        .tuple(fc.option(id, { nil: null }), error)
        .map(([i, e]) => ({ kind: 'error' as const, message: makeErrorResponse(i, e.code, e.message, e.data) })),
    );
    fc.assert(
      fc.property(built, ({ kind, message }) => {
        const classified = classifyMessage(message);
        expect(classified.kind).toBe(kind);
        expect('message' in classified && classified.message).toBe(message);
        // What crosses the wire is the JSON text: the kind survives the round trip.
        expect(classifyMessage(JSON.parse(JSON.stringify(message))).kind).toBe(kind);
        expect(classifyPayload([message]).map((c) => c.kind)).toEqual([kind]);
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(!hasSchema('2025-11-25'))(
  hasSchema('2025-11-25') ? 'built messages against the 2025-11-25 schema' : missingSchemaMessage('2025-11-25'),
  () => {
    const rev = '2025-11-25';
    const ok = { ok: true };

    it('requests, notifications, responses and error responses are valid JSON-RPC envelopes', () => {
      fc.assert(
        fc.property(id, method, fc.option(objectParams, { nil: undefined }), (i, m, p) => {
          expect(validateDefinition(rev, 'JSONRPCRequest', makeRequest(i, m, p))).toEqual(ok);
          const notification = makeNotification(m, p);
          expect(validateDefinition(rev, 'JSONRPCNotification', notification)).toEqual(ok);
          // The schema leaves notifications open, so "no id" needs its own check.
          expect(Object.keys(notification)).not.toContain('id');
          expect(validateDefinition(rev, 'JSONRPCRequest', notification)).not.toEqual(ok);
        }),
        { numRuns: 200 },
      );
      fc.assert(
        fc.property(id, objectParams, error, (i, r, e) => {
          expect(validateDefinition(rev, 'JSONRPCResultResponse', makeResponse(i, r))).toEqual(ok);
          expect(
            validateDefinition(rev, 'JSONRPCErrorResponse', makeErrorResponse(i, e.code, e.message, e.data)),
          ).toEqual(ok);
        }),
        { numRuns: 200 },
      );
    });

    it('array params are JSON-RPC but not MCP: the schema rejects them', () => {
      expect(validateDefinition(rev, 'JSONRPCRequest', makeRequest(1, 'sum', [1, 2]))).toMatchObject({
        ok: false,
        errors: expect.stringContaining('/params must be object'),
      });
    });

    it('the schema allows an error response without an id but not with id null', () => {
      // A fact for whoever answers an unreadable request: MCP's RequestId excludes null, so omit the id.
      expect(
        validateDefinition(rev, 'JSONRPCErrorResponse', {
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error' },
        }),
      ).toEqual(ok);
      expect(
        validateDefinition(rev, 'JSONRPCErrorResponse', makeErrorResponse(null, -32700, 'Parse error')),
      ).toMatchObject({ ok: false, errors: expect.stringContaining('/id') });
    });
  },
);
