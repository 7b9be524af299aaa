import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as http from '../src/transport/http/index.js';

describe('the public surface', () => {
  it('mcpwire/http exports exactly this list of runtime names', () => {
    expect(Object.keys(http).sort()).toMatchInlineSnapshot(`
      [
        "LegacySseTransport",
        "SseDecoder",
        "StreamableHttpTransport",
        "decodeHeaderValue",
        "encodeHeaderValue",
        "redactHeaderValue",
        "redactHeaders",
        "redactUrl",
      ]
    `);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, { import: string }> };
    expect(manifest.exports['./http']!.import).toBe('./dist/transport/http/index.js');
  });

  it('the main entry re-exports nothing at runtime from the HTTP transports (undici loads on demand)', () => {
    const index = readFileSync(new URL('../src/index.ts', import.meta.url), 'utf8');
    expect(index).not.toMatch(/^export \{[^}]*\} from '\.\/transport\/http\//m);
  });

  it('exports exactly this list of runtime names', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "ApprovalStore",
        "ConfigError",
        "ConfigLoader",
        "DEFAULT_MAX_RESULT_CHARS",
        "DEFAULT_MAX_TOTAL_TIMEOUT_MS",
        "DEFAULT_REQUEST_TIMEOUT_MS",
        "HttpError",
        "IMPORT_HOSTS",
        "JsonRpcConnection",
        "LATEST_LEGACY_REVISION",
        "LATEST_MODERN_REVISION",
        "LEGACY_REVISIONS",
        "MODERN_REVISIONS",
        "McpClient",
        "McpError",
        "McpManager",
        "McpStepRunner",
        "NdjsonDecoder",
        "OutputSchemaError",
        "PermissionError",
        "PermissionPolicy",
        "RpcErrorCode",
        "SUPPORTED_REVISIONS",
        "SizeLimitError",
        "StdioTransport",
        "ToolRegistry",
        "TraceBuilder",
        "VERSION",
        "authorize",
        "buildServerEnv",
        "canonicalToolName",
        "classifyMessage",
        "classifyPayload",
        "cleanSchema",
        "connectServer",
        "connectTarget",
        "contentBlockToText",
        "createLinkedPair",
        "encodeMessage",
        "eraOf",
        "fingerprint",
        "guardSink",
        "handleCommand",
        "hasFeature",
        "importFrom",
        "isMcpError",
        "isSupportedRevision",
        "jsonlFileSink",
        "loadConfig",
        "makeErrorResponse",
        "makeNotification",
        "makeRequest",
        "makeResponse",
        "prettyTraceLine",
        "redactServer",
        "renderTemplate",
        "resetMcpSteps",
        "resultToText",
        "runMcpStep",
        "streamSink",
        "toAnthropicTools",
        "toGeminiFunctionDeclarations",
        "toOpenAITools",
        "toolDescription",
        "traceHttpFacts",
        "traceTransport",
        "watchConfigFiles",
      ]
    `);
  });

  it('reports the package version as clientInfo.version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
