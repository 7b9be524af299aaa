/**
 * The schema kit itself: valid messages of every revision pass, and each kind of mistake a client
 * could make fails with an error that names the offending field.
 */
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_REVISIONS,
  assertValidClientMessage,
  definitionForMethod,
  hasSchema,
  missingSchemaMessage,
  revisionsWithSchemas,
  validateDefinition,
  validateMessage,
} from './kit/spec-schemas.js';

const clientInfo = { name: 'mcpwire', version: '0.1.0' };
const meta = (revision: string) => ({
  'io.modelcontextprotocol/protocolVersion': revision,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': clientInfo,
});

function expectValid(outcome: ReturnType<typeof validateMessage>): void {
  expect(outcome.ok ? '' : outcome.errors).toBe('');
}

function expectInvalid(outcome: ReturnType<typeof validateMessage>, ...mentions: string[]): void {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  for (const mention of mentions) expect(outcome.errors).toContain(mention);
}

it('finds the schemas beside the clone (or says which are missing)', () => {
  const present = revisionsWithSchemas();
  for (const revision of SCHEMA_REVISIONS) expect(present.includes(revision)).toBe(hasSchema(revision));
  expect(hasSchema('1999-01-01')).toBe(false);
  expect(missingSchemaMessage('1999-01-01')).toMatch(
    /no MCP JSON Schema for revision 1999-01-01: .*1999-01-01[/\\]schema\.json does not exist/,
  );
  expect(() => validateMessage('1999-01-01', {}, 'client')).toThrow(/no MCP JSON Schema for revision 1999-01-01/);
});

for (const revision of SCHEMA_REVISIONS.filter((r) => r < '2026-07-28')) {
  describe.skipIf(!hasSchema(revision))(
    hasSchema(revision) ? `legacy revision ${revision}` : missingSchemaMessage(revision),
    () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: revision, capabilities: {}, clientInfo },
      };

      it('maps methods to definitions from the schema itself', () => {
        expect(definitionForMethod(revision, 'client', 'request', 'tools/call')).toBe('CallToolRequest');
        expect(definitionForMethod(revision, 'client', 'request', 'initialize')).toBe('InitializeRequest');
        expect(definitionForMethod(revision, 'client', 'notification', 'notifications/initialized')).toBe(
          'InitializedNotification',
        );
        expect(definitionForMethod(revision, 'server', 'request', 'roots/list')).toBe('ListRootsRequest');
        expect(definitionForMethod(revision, 'client', 'request', 'roots/list')).toBeUndefined();
      });

      it('passes a valid initialize, tools/call, notifications/initialized and ping', () => {
        expectValid(validateMessage(revision, initialize, 'client'));
        expectValid(
          validateMessage(
            revision,
            { jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
            'client',
          ),
        );
        expectValid(validateMessage(revision, { jsonrpc: '2.0', method: 'notifications/initialized' }, 'client'));
        expectValid(validateMessage(revision, { jsonrpc: '2.0', id: 2, method: 'ping' }, 'client'));
        expectValid(validateMessage(revision, { jsonrpc: '2.0', id: 2, result: {} }, 'client', { forMethod: 'ping' }));
        expectValid(
          validateMessage(
            revision,
            { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } },
            'client',
          ),
        );
      });

      it('fails tools/call without "name"', () => {
        expectInvalid(
          validateMessage(
            revision,
            { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } },
            'client',
          ),
          'CallToolRequest',
          "/params must have required property 'name'",
        );
      });

      it('fails a notification that carries an id', () => {
        expectInvalid(
          validateMessage(revision, { jsonrpc: '2.0', id: 9, method: 'notifications/initialized' }, 'client'),
          '/id',
          'must not carry "id"',
        );
      });

      it('fails a request without an id', () => {
        expectInvalid(
          validateMessage(revision, { jsonrpc: '2.0', method: 'ping' }, 'client'),
          '"ping" is a request',
          'must carry an "id"',
        );
      });

      it('fails a protocolVersion of the wrong type', () => {
        const broken = { ...initialize, params: { ...initialize.params, protocolVersion: 20241105 } };
        expectInvalid(validateMessage(revision, broken, 'client'), '/params/protocolVersion must be string');
      });

      it('fails a wrong jsonrpc version, a null id and a server-only request sent by the client', () => {
        expectInvalid(validateMessage(revision, { ...initialize, jsonrpc: '1.0' }, 'client'), '/jsonrpc');
        expectInvalid(validateMessage(revision, { ...initialize, id: null }, 'client'), '/id');
        expectInvalid(
          validateMessage(
            revision,
            { jsonrpc: '2.0', id: 4, method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } },
            'client',
          ),
          '"sampling/createMessage" is a server request',
        );
      });

      it('checks a client result against the result of the server request it answers', () => {
        const noRoots = { jsonrpc: '2.0', id: 1, result: { items: [] } };
        expectInvalid(
          validateMessage(revision, noRoots, 'client', { forMethod: 'roots/list' }),
          'ListRootsResult',
          "/result must have required property 'roots'",
        );
        expectInvalid(
          validateMessage(revision, noRoots, 'client', { requestMethods: new Map([[1, 'roots/list']]) }),
          'ListRootsResult',
        );
        expectValid(
          validateMessage(revision, { jsonrpc: '2.0', id: 1, result: { roots: [{ uri: 'file:///tmp' }] } }, 'client', {
            forMethod: 'roots/list',
          }),
        );
        expectInvalid(
          validateMessage(revision, { jsonrpc: '2.0', id: 1, result: {} }, 'client', { forMethod: 'tools/call' }),
          '"tools/call", which is not a server request',
        );
      });

      it('checks a server result against the result of the client request it answers', () => {
        expectInvalid(
          validateMessage(revision, { jsonrpc: '2.0', id: 1, result: { capabilities: {} } }, 'server', {
            forMethod: 'initialize',
          }),
          'InitializeResult',
          'protocolVersion',
        );
        expectValid(
          validateMessage(
            revision,
            { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
            'server',
            { forMethod: 'tools/call' },
          ),
        );
      });

      it(revision === '2025-03-26' ? 'accepts batches and checks each element' : 'rejects batches', () => {
        const batch = [
          { jsonrpc: '2.0', id: 5, method: 'tools/list' },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
        ];
        if (revision === '2025-03-26') {
          expectValid(validateMessage(revision, batch, 'client'));
          expectInvalid(
            validateMessage(
              revision,
              [...batch, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: {} }],
              'client',
            ),
            "/2/params must have required property 'name'",
          );
          expectInvalid(validateMessage(revision, [], 'client'), 'empty batch');
          expectInvalid(
            validateMessage(revision, [batch[0], { jsonrpc: '2.0', id: 1, result: {} }], 'client'),
            'not both',
          );
        } else {
          expectInvalid(validateMessage(revision, batch, 'client'), 'has no JSON-RPC batches');
        }
      });
    },
  );
}

describe.skipIf(!hasSchema('2026-07-28'))(
  hasSchema('2026-07-28') ? 'modern revision 2026-07-28' : missingSchemaMessage('2026-07-28'),
  () => {
    const revision = '2026-07-28';

    it('passes server/discover and tools/call carrying the required _meta, and notifications/cancelled', () => {
      expectValid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta(revision) } },
          'client',
        ),
      );
      expectValid(
        validateMessage(
          revision,
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta(revision) },
          },
          'client',
        ),
      );
      expectValid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
          'client',
        ),
      );
      expect(definitionForMethod(revision, 'client', 'notification', 'notifications/cancelled')).toBe(
        'CancelledNotification',
      );
      expect(definitionForMethod(revision, 'client', 'request', 'server/discover')).toBe('DiscoverRequest');
    });

    it('fails a request without _meta, or with _meta missing a required key', () => {
      expectInvalid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }, 'client'),
        "/params must have required property '_meta'",
      );
      expectInvalid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, method: 'server/discover' }, 'client'),
        "must have required property 'params'",
      );
      const noCaps = { 'io.modelcontextprotocol/protocolVersion': revision };
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: noCaps } },
          'client',
        ),
        "/params/_meta must have required property 'io.modelcontextprotocol/clientCapabilities'",
      );
    });

    it('fails tools/call without "name" and a protocolVersion of the wrong type', () => {
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(revision) } },
          'client',
        ),
        "/params must have required property 'name'",
      );
      const badVersion = { ...meta(revision), 'io.modelcontextprotocol/protocolVersion': 20260728 };
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: badVersion } },
          'client',
        ),
        '/params/_meta/io.modelcontextprotocol~1protocolVersion must be string',
      );
    });

    it('fails a notification that carries an id', () => {
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 3, method: 'notifications/cancelled', params: { requestId: 2 } },
          'client',
        ),
        '/id',
        'must not carry "id"',
      );
    });

    it('fails what the modern era removed: initialize, ping, client results', () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: revision, capabilities: {}, clientInfo },
      };
      expectInvalid(
        validateMessage(revision, initialize, 'client'),
        '"initialize" is not a client request of 2026-07-28',
      );
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: meta(revision) } },
          'client',
        ),
        '"ping"',
      );
      expectInvalid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }, 'client'),
        'a client never sends a result',
      );
      expectInvalid(
        validateMessage(
          revision,
          { jsonrpc: '2.0', id: 1, method: 'roots/list', params: { _meta: meta(revision) } },
          'server',
        ),
        'no server → client requests',
      );
    });

    it('checks server results by method, including input_required', () => {
      expectInvalid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, result: { content: [] } }, 'server', {
          forMethod: 'tools/call',
        }),
        "must have required property 'resultType'",
      );
      const inputRequired = {
        resultType: 'input_required',
        inputRequests: { a: { method: 'roots/list', params: {} } },
        requestState: 's',
      };
      expectValid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, result: inputRequired }, 'server', {
          forMethod: 'tools/call',
        }),
      );
      expectInvalid(
        validateMessage(revision, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [] } }, 'server', {
          forMethod: 'tools/list',
        }),
        'ttlMs',
        'cacheScope',
      );
    });
  },
);

describe.skipIf(!hasSchema('2025-11-25'))('assertValidClientMessage and validateDefinition', () => {
  it('throws a readable error that lists the problems and prints the message', () => {
    const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } };
    expect(() => assertValidClientMessage('2025-11-25', message)).toThrow(
      /client message is invalid for MCP 2025-11-25:\n {2}CallToolRequest: \/params must have required property 'name'\nmessage:\n[\s\S]*"method": "tools\/call"/,
    );
    expect(() => assertValidClientMessage('2025-11-25', { jsonrpc: '2.0', id: 7, method: 'ping' })).not.toThrow();
  });

  it('validates a value against one named definition', () => {
    expect(validateDefinition('2025-11-25', 'JSONRPCNotification', { jsonrpc: '2.0', method: 'x' })).toEqual({
      ok: true,
    });
    expect(validateDefinition('2025-11-25', 'JSONRPCRequest', { jsonrpc: '2.0', method: 'x' })).toMatchObject({
      ok: false,
    });
    expect(() => validateDefinition('2025-11-25', 'NoSuchDefinition', {})).toThrow(
      /has no definition NoSuchDefinition/,
    );
  });
});
