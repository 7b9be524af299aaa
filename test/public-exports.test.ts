import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('the public surface', () => {
  it('exports exactly this list of runtime names', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_MAX_TOTAL_TIMEOUT_MS",
        "DEFAULT_REQUEST_TIMEOUT_MS",
        "JsonRpcConnection",
        "LATEST_LEGACY_REVISION",
        "LATEST_MODERN_REVISION",
        "LEGACY_REVISIONS",
        "MODERN_REVISIONS",
        "McpClient",
        "McpError",
        "NdjsonDecoder",
        "RpcErrorCode",
        "SUPPORTED_REVISIONS",
        "StdioTransport",
        "VERSION",
        "buildServerEnv",
        "classifyMessage",
        "classifyPayload",
        "createLinkedPair",
        "encodeMessage",
        "eraOf",
        "hasFeature",
        "isMcpError",
        "isSupportedRevision",
        "makeErrorResponse",
        "makeNotification",
        "makeRequest",
        "makeResponse",
      ]
    `);
  });

  it('reports the package version as clientInfo.version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
