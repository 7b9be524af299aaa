import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import * as api from '../src/index.js';
import * as http from '../src/transport/http/index.js';
import * as server from '../src/server/index.js';
import * as neutral from '../src/server/neutral.js';
import * as rootNeutral from '../src/neutral.js';
import * as types from '../src/types.js';

/** The names an entry file exports only as types (interfaces, type aliases), sorted: what the compiler sees. */
function typeOnlyExports(entry: string): string[] {
  const file = fileURLToPath(new URL(`../${entry}`, import.meta.url));
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const symbol = checker.getSymbolAtLocation(source)!;
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return (target.flags & ts.SymbolFlags.Value) === 0;
    })
    .map((exported) => exported.name)
    .sort();
}

describe('the public surface', () => {
  it('mcpwire/http exports exactly this list of runtime names', async () => {
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
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, Record<'node' | 'default', { default: string }>>;
    };
    // Node's entry is the same list with undici's pool registered as the default engine.
    expect(manifest.exports['./http']!.default.default).toBe('./dist/transport/http/index.js');
    expect(manifest.exports['./http']!.node.default).toBe('./dist/transport/http/node.js');
    const onNode = await import('../src/transport/http/node.js');
    expect(Object.keys(onNode).sort()).toEqual(Object.keys(http).sort());
  });

  it('mcpwire/server/redis exports exactly this list of runtime names, from its own entry', async () => {
    const redis = await import('../src/server/redis/index.js');
    expect(Object.keys(redis).sort()).toEqual([
      'RedisChangeBus',
      'RedisEventLog',
      'RedisReplayCache',
      'RedisSessionStore',
      'RedisState',
      'RedisTaskStore',
      'redisState',
    ]);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { import: string }>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(manifest.exports['./server/redis']!.import).toBe('./dist/server/redis/index.js');
    expect(manifest.peerDependenciesMeta.ioredis).toEqual({ optional: true });
  });

  it('mcpwire/apps exports exactly this list of runtime names and types, from its own entry (browser code)', async () => {
    const apps = await import('../src/apps/index.js');
    expect(Object.keys(apps).sort()).toEqual([
      'AppHost',
      'DEFAULT_APP_CSP',
      'UI_METHODS',
      'UI_PROTOCOL_VERSIONS',
      'VIEW_REFUSED',
      'buildAppCsp',
      'sandboxProxyHeaders',
      'sandboxProxyHtml',
      'sanitizeCsp',
    ]);
    expect(typeOnlyExports('src/apps/index.ts')).toEqual([
      'AppAuditEvent',
      'AppContainer',
      'AppFrame',
      'AppHostOptions',
      'AppServerClient',
      'AppView',
      'HostWindow',
      'MessageEventShape',
      'PostTarget',
      'RenderCall',
      'SandboxProxyOptions',
      'UiDisplayMode',
      'UiHostContext',
      'UiMessage',
      'UiModelContext',
    ]);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.exports['./apps']).toEqual({ types: './dist/apps/index.d.ts', import: './dist/apps/index.js' });
  });

  it('mcpwire/gateway exports exactly this list of runtime names and types, from its own entry', async () => {
    const gateway = await import('../src/gateway/index.js');
    expect(Object.keys(gateway).sort()).toEqual([
      'GATEWAY_STATUS_URI',
      'PinStore',
      'createGateway',
      'gatewayHttp',
      'gatewayUri',
      'keepSubjectTokens',
      'pinDiff',
      'toolFingerprint',
      'upstreamUri',
    ]);
    expect(typeOnlyExports('src/gateway/index.ts')).toEqual([
      'BucketLimits',
      'Gateway',
      'GatewayCardOptions',
      'GatewayHttp',
      'GatewayOptions',
      'GatewayPolicy',
      'GatewayStatus',
      'PinVerdict',
      'TokenExchangeOptions',
      'TokenExchangeServer',
      'UpstreamStatus',
      'VirtualServerConfig',
    ]);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.exports['./gateway']).toEqual({
      types: './dist/gateway/index.d.ts',
      import: './dist/gateway/index.js',
    });
  });

  it('mcpwire/server exports exactly this list of runtime names', () => {
    expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
      [
        "BearerTokenError",
        "EXTENSION_IDS",
        "KIT_ERROR_CODES",
        "LOCAL_HOSTS",
        "McpServer",
        "MemoryChangeBus",
        "MemoryEventLog",
        "MemoryReplayCache",
        "MemorySessionStore",
        "MemoryTaskStore",
        "ResourceNotFoundError",
        "ServerSession",
        "StdioServerTransport",
        "ToolError",
        "UI_MIME_TYPE",
        "createFetchHandler",
        "createHttpHandler",
        "jwtBearer",
        "skillsFromDirectory",
        "stderrLogger",
      ]
    `);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
    };
    // Node (and Deno, Bun) take the full entry; every other runtime the neutral one, without stdio and node:http.
    expect(manifest.exports['./server']).toEqual({
      types: './dist/server/index.d.ts',
      node: './dist/server/index.js',
      default: './dist/server/neutral.js',
    });
    expect(Object.keys(neutral).sort()).toEqual(
      Object.keys(server)
        .filter((name) => !['StdioServerTransport', 'createHttpHandler', 'skillsFromDirectory'].includes(name))
        .sort(),
    );
  });

  it('mcpwire/server/postgres exports exactly this list of runtime names, and imports pg dynamically (when a store is first used)', async () => {
    const postgres = await import('../src/server/postgres/index.js');
    expect(Object.keys(postgres).sort()).toEqual([
      'PgChangeBus',
      'PgEventLog',
      'PgReplayCache',
      'PgSessionStore',
      'PgTaskStore',
      'PostgresState',
      'postgresState',
    ]);
    const source = readFileSync(new URL('../src/server/postgres/pg-driver.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/await import\('pg'\)/);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { import: string }>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    expect(manifest.exports['./server/postgres']!.import).toBe('./dist/server/postgres/index.js');
    expect(manifest.peerDependenciesMeta.pg).toEqual({ optional: true });
  });

  it('the main entry re-exports nothing at runtime from the HTTP transports (undici loads on demand)', () => {
    for (const entry of ['src/index.ts', 'src/client-surface.ts', 'src/neutral.ts']) {
      const source = readFileSync(new URL(`../${entry}`, import.meta.url), 'utf8');
      expect(source, entry).not.toMatch(/^export \{[^}]*\} from '\.\/transport\/http\//m);
    }
  });

  it('the root has a Node entry and a runtime-neutral one, each with its own types', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
      sideEffects: string[];
    };
    // Node, Deno and Bun (and `require('mcpwire')`) take the full entry; browsers and Workers the neutral one.
    expect(manifest.exports['.']).toEqual({
      node: { types: './dist/index.d.ts', default: './dist/index.js' },
      default: { types: './dist/neutral.d.ts', default: './dist/neutral.js' },
    });
    // Both root entries do work at load (Node parts registered, the no-eval engine installed).
    expect(manifest.sideEffects).toEqual(expect.arrayContaining(['./dist/index.js', './dist/neutral.js']));
  });

  it('the neutral root exports exactly this list of runtime names: the Node entry without its Node-only parts', () => {
    const nodeOnly = [
      'ApprovalStore',
      'ConfigLoader',
      'HOSTS',
      'HeadersHelperError',
      'IMPORT_HOSTS',
      'McpManager',
      'McpStepRunner',
      'StdioTransport',
      'connectServer',
      'connectTarget',
      'discoverHosts',
      'handleCommand',
      'hostFiles',
      'importFrom',
      'jsonlFileSink',
      'loadConfig',
      'resetMcpSteps',
      'runMcpStep',
      'watchConfigFiles',
    ];
    expect(Object.keys(rootNeutral).sort()).toEqual(
      Object.keys(api)
        .filter((name) => !nodeOnly.includes(name))
        .sort(),
    );
    expect(Object.keys(rootNeutral).sort()).toMatchInlineSnapshot(`
      [
        "ConfigError",
        "DEFAULT_MAX_RESULT_CHARS",
        "DEFAULT_MAX_TOTAL_TIMEOUT_MS",
        "DEFAULT_REQUEST_TIMEOUT_MS",
        "EXTENSION_IDS",
        "HttpError",
        "HttpRouteCache",
        "LATEST_LEGACY_REVISION",
        "LATEST_MODERN_REVISION",
        "LEGACY_REVISIONS",
        "MCP_CHANNELS",
        "MODERN_REVISIONS",
        "McpClient",
        "McpError",
        "OutputSchemaError",
        "PermissionError",
        "PermissionPolicy",
        "RpcErrorCode",
        "SKILL_LIMITS",
        "SUPPORTED_REVISIONS",
        "SessionExpiredError",
        "SizeLimitError",
        "SkillVerificationError",
        "ToolRegistry",
        "VERSION",
        "authorize",
        "canonicalToolName",
        "cleanSchema",
        "compareServerCard",
        "contentBlockToText",
        "createLinkedPair",
        "eraOf",
        "extensionSettings",
        "extensionsOf",
        "fetchMcpCatalog",
        "fetchServerCard",
        "hasFeature",
        "isExtensionId",
        "isMcpError",
        "isSupportedRevision",
        "prettyTraceLine",
        "redactServer",
        "resultToText",
        "streamSink",
        "toAnthropicTools",
        "toGeminiFunctionDeclarations",
        "toOpenAITools",
        "toolDescription",
        "traceTransport",
      ]
    `);
  });

  it('exports exactly this list of types from the neutral root', () => {
    expect(typeOnlyExports('src/neutral.ts')).toMatchInlineSnapshot(`
      [
        "AbortLike",
        "AnthropicTool",
        "AuthChallenge",
        "CallOptions",
        "CardFetchOptions",
        "ClientEvents",
        "ClientOptions",
        "CloseInfo",
        "ConnectTarget",
        "DirectoryResource",
        "Disposer",
        "ElicitationMode",
        "Era",
        "EraChoice",
        "ExportableTool",
        "ExtensionDeclaration",
        "ExtensionMap",
        "ExtensionSettings",
        "Feature",
        "FetchedMcpCatalog",
        "FetchedServerCard",
        "GeminiFunctionDeclaration",
        "HttpRoute",
        "HttpServerSpec",
        "KnownTools",
        "ListOptions",
        "ManagedServer",
        "McpCatalog",
        "McpCatalogEntry",
        "McpConnectionFacts",
        "McpErrorCode",
        "McpErrorDetails",
        "McpHandleNotificationEvent",
        "McpHandleRequestEvent",
        "McpMessageEvent",
        "McpSendNotificationEvent",
        "McpSendRequestEvent",
        "McpSessionEvent",
        "McpTransportKind",
        "OpenAIFunctionTool",
        "OutputSchemaProblem",
        "PermissionAskHook",
        "PermissionAskRequest",
        "PermissionBlock",
        "PermissionDecision",
        "PermissionRule",
        "PermissionSubject",
        "PermissionVerdict",
        "PrettyOptions",
        "ProtocolRevision",
        "Provenance",
        "RegisteredTool",
        "ResendPolicy",
        "RestartPolicy",
        "ResultText",
        "ResultTextOptions",
        "SchemaChange",
        "SchemaProfile",
        "SendOptions",
        "ServerCard",
        "ServerCardRemote",
        "ServerCardRepository",
        "ServerDefinition",
        "ServerInputContext",
        "ServerInputHandlers",
        "Skill",
        "SkillFile",
        "SkillFrontmatter",
        "SkillListing",
        "SkillReadOptions",
        "SkillRejection",
        "SkillResourceEntry",
        "SkillsCapability",
        "StdioServerSpec",
        "ToolAddress",
        "ToolExportOptions",
        "ToolRename",
        "ToolRenameReason",
        "ToolSchemaChanges",
        "TraceDirection",
        "TraceHttp",
        "TraceKind",
        "TraceLane",
        "TraceOptions",
        "TraceRecord",
        "TraceSink",
        "TraceTransportOptions",
        "Transport",
        "TransportDiagnostic",
        "UnreachableRule",
      ]
    `);
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
        "EXTENSION_IDS",
        "HOSTS",
        "HeadersHelperError",
        "HttpError",
        "HttpRouteCache",
        "IMPORT_HOSTS",
        "LATEST_LEGACY_REVISION",
        "LATEST_MODERN_REVISION",
        "LEGACY_REVISIONS",
        "MCP_CHANNELS",
        "MODERN_REVISIONS",
        "McpClient",
        "McpError",
        "McpManager",
        "McpStepRunner",
        "OutputSchemaError",
        "PermissionError",
        "PermissionPolicy",
        "RpcErrorCode",
        "SKILL_LIMITS",
        "SUPPORTED_REVISIONS",
        "SessionExpiredError",
        "SizeLimitError",
        "SkillVerificationError",
        "StdioTransport",
        "ToolRegistry",
        "VERSION",
        "authorize",
        "canonicalToolName",
        "cleanSchema",
        "compareServerCard",
        "connectServer",
        "connectTarget",
        "contentBlockToText",
        "createLinkedPair",
        "discoverHosts",
        "eraOf",
        "extensionSettings",
        "extensionsOf",
        "fetchMcpCatalog",
        "fetchServerCard",
        "handleCommand",
        "hasFeature",
        "hostFiles",
        "importFrom",
        "isExtensionId",
        "isMcpError",
        "isSupportedRevision",
        "jsonlFileSink",
        "loadConfig",
        "prettyTraceLine",
        "redactServer",
        "resetMcpSteps",
        "resultToText",
        "runMcpStep",
        "streamSink",
        "toAnthropicTools",
        "toGeminiFunctionDeclarations",
        "toOpenAITools",
        "toolDescription",
        "traceTransport",
        "watchConfigFiles",
      ]
    `);
  });

  it('exports exactly this list of types from the main entry', () => {
    expect(typeOnlyExports('src/index.ts')).toMatchInlineSnapshot(`
      [
        "AbortLike",
        "AnthropicTool",
        "AuthChallenge",
        "CallOptions",
        "CardFetchOptions",
        "CatalogTool",
        "ClientEvents",
        "ClientOptions",
        "CloseInfo",
        "CommandResult",
        "ConfigOptions",
        "ConfigProvenance",
        "ConfigWatch",
        "ConnectTarget",
        "DebugLogger",
        "DirectoryResource",
        "DiscoverOptions",
        "DiscoveredServer",
        "Discovery",
        "Disposer",
        "ElicitationMode",
        "Era",
        "EraChoice",
        "ExecuteResult",
        "ExportableTool",
        "ExtensionDeclaration",
        "ExtensionMap",
        "ExtensionSettings",
        "Feature",
        "FetchedMcpCatalog",
        "FetchedServerCard",
        "GeminiFunctionDeclaration",
        "HostFile",
        "HostFileStatus",
        "HostFormat",
        "HostId",
        "HostInfo",
        "HostLocationOptions",
        "HostScope",
        "HttpRoute",
        "HttpServerSpec",
        "ImportHost",
        "ImportOptions",
        "ImportResult",
        "JsonlFileSink",
        "KnownTools",
        "ListOptions",
        "LoadedConfig",
        "LoadedServer",
        "ManagedServer",
        "ManagerEvents",
        "ManagerOptions",
        "ManagerState",
        "ManagerStatus",
        "McpCatalog",
        "McpCatalogEntry",
        "McpConnectionFacts",
        "McpErrorCode",
        "McpErrorDetails",
        "McpHandleNotificationEvent",
        "McpHandleRequestEvent",
        "McpMessageEvent",
        "McpSendNotificationEvent",
        "McpSendRequestEvent",
        "McpSessionEvent",
        "McpStep",
        "McpStepResult",
        "McpStepRunnerOptions",
        "McpTransportKind",
        "NeedsAuthEvent",
        "OpenAIFunctionTool",
        "OutputSchemaProblem",
        "PermissionAskHook",
        "PermissionAskRequest",
        "PermissionBlock",
        "PermissionDecision",
        "PermissionRequest",
        "PermissionRule",
        "PermissionSubject",
        "PermissionVerdict",
        "PrettyOptions",
        "ProtocolRevision",
        "Provenance",
        "ReconcileResult",
        "RegisteredTool",
        "ResendPolicy",
        "RestartPolicy",
        "RestoreResult",
        "ResultText",
        "ResultTextOptions",
        "RunMcpStepOptions",
        "SchemaChange",
        "SchemaProfile",
        "SendOptions",
        "ServerCard",
        "ServerCardRemote",
        "ServerCardRepository",
        "ServerDefinition",
        "ServerInputContext",
        "ServerInputHandlers",
        "ServerStatus",
        "ServerStatusReport",
        "Skill",
        "SkillFile",
        "SkillFrontmatter",
        "SkillListing",
        "SkillReadOptions",
        "SkillRejection",
        "SkillResourceEntry",
        "SkillsCapability",
        "StatusChange",
        "StdioServerSpec",
        "StdioTransportOptions",
        "StepServer",
        "ToolAddress",
        "ToolExportOptions",
        "ToolRename",
        "ToolRenameReason",
        "ToolSchemaChanges",
        "TraceDirection",
        "TraceHttp",
        "TraceKind",
        "TraceLane",
        "TraceOptions",
        "TraceRecord",
        "TraceSink",
        "TraceTransportOptions",
        "Transport",
        "TransportDiagnostic",
        "UnreachableRule",
        "WatchOptions",
      ]
    `);
  });

  it('mcpwire/types exports every MCP type, the JSON-RPC message types and the method tables, and nothing at runtime', () => {
    expect(Object.keys(types)).toEqual([]);
    const protocolTypes = [
      ...readFileSync(new URL('../src/protocol/types.ts', import.meta.url), 'utf8').matchAll(
        /^export (?:type|interface) (\w+)/gm,
      ),
    ].map((m) => m[1]!);
    const exported = typeOnlyExports('src/types.ts');
    expect(exported).toEqual(expect.arrayContaining(protocolTypes));
    expect(exported.filter((name) => !protocolTypes.includes(name))).toMatchInlineSnapshot(`
      [
        "ClientNotifications",
        "ClientRequestMethod",
        "ClientRequests",
        "JsonRpcErrorObject",
        "JsonRpcErrorResponse",
        "JsonRpcId",
        "JsonRpcMessage",
        "JsonRpcNotification",
        "JsonRpcParams",
        "JsonRpcRequest",
        "JsonRpcResponse",
        "ParamsOf",
        "ResultOf",
        "ServerNotifications",
        "ServerRequestMethod",
        "ServerRequests",
      ]
    `);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.exports['./types']).toEqual({ types: './dist/types.d.ts', import: './dist/types.js' });
  });

  it('no entry re-exports a whole module (no export * / export type *) but the root surface list', () => {
    for (const entry of [
      'src/index.ts',
      'src/neutral.ts',
      'src/client-surface.ts',
      'src/types.ts',
      'src/transport/http/index.ts',
      'src/inspect/proxy/index.ts',
      'src/apps/index.ts',
    ]) {
      const source = readFileSync(new URL(`../${entry}`, import.meta.url), 'utf8');
      // Both root entries re-export the one explicit list whole, as `mcpwire/server` does with kit-surface.ts.
      const rest = source.replace(/^export \* from '\.\/client-surface\.js';$/m, '');
      expect(rest, entry).not.toMatch(/^export (type )?\*/m);
    }
  });

  it('reports the package version as clientInfo.version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
