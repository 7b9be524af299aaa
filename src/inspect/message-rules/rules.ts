/**
 * The catalogue of mcpwire's own message rules: a short stable id per rule, what it checks, and
 * the spec page that states it (paths are in the specification repository,
 * `modelcontextprotocol/modelcontextprotocol`, under `docs/specification/<revision>/`, and the
 * normative `schema/<revision>/schema.ts`). Ids never change meaning; new rules get new ids.
 */
import { META_KEYS } from '../../protocol/meta-keys.js';

/** One entry of {@link MESSAGE_RULES}. */
export interface RuleInfo {
  /** One line: what a violation of this rule means. */
  summary: string;
  /** Where the spec says so. */
  spec: string;
}

/** Every rule mcpwire's own linter applies, by id. */
export const MESSAGE_RULES = {
  'jsonrpc.parse': {
    summary: 'a frame is not JSON at all',
    spec: '<rev>/basic/index.mdx "Messages" (every message is JSON-RPC 2.0, UTF-8 JSON)',
  },
  'jsonrpc.version': {
    summary: 'a message does not carry "jsonrpc": "2.0"',
    spec: '<rev>/basic/index.mdx "Messages"; schema.ts JSONRPC_VERSION',
  },
  'jsonrpc.id-type': {
    summary: 'a request or response id is not a string or an integer (null is not allowed for requests)',
    spec: '<rev>/basic/index.mdx "Requests": "Requests MUST include a string or integer ID", "MUST NOT be null"',
  },
  'jsonrpc.shape': {
    summary: 'a message is none of request, notification, result response or error response',
    spec: '<rev>/basic/index.mdx "Responses": either result or error, never both; error codes are integers',
  },
  'jsonrpc.duplicate-id': {
    summary: 'a request reuses the id of a request the same side still has open',
    spec: '2025-06-18/basic/index.mdx "Requests": "The request ID MUST NOT have been previously used by the requestor within the same session"; 2026-07-28/basic/index.mdx: must not match any other request the sender has in flight',
  },
  'jsonrpc.unknown-id': {
    summary: 'a response answers an id the other side never sent (or already had answered)',
    spec: '<rev>/basic/index.mdx "Responses": "Responses MUST include the same ID as the request they correspond to"',
  },
  'jsonrpc.batch-not-allowed': {
    summary: 'a JSON-RPC batch in a revision without batching (only 2025-03-26 has batches)',
    spec: '2025-03-26/basic/index.mdx "Batching"; 2025-06-18/changelog.mdx item 1 "Remove support for JSON-RPC batching"',
  },
  'method.not-in-revision': {
    summary: 'a request or notification whose method the negotiated revision does not have',
    spec: 'schema/<rev>/schema.ts ClientRequest/ServerRequest/ClientNotification/ServerNotification; 2026-07-28/changelog.mdx items 2, 5, 7, 11 (initialize, ping, logging/setLevel, server requests, elicitation/complete removed)',
  },
  'method.wrong-direction': {
    summary:
      'a method sent by the side that must not send it (a server calling tools/call, a client sending sampling/createMessage)',
    spec: 'schema/<rev>/schema.ts: the Client* unions list what a client sends, the Server* unions what a server sends',
  },
  'method.wrong-kind': {
    summary: 'a notification method sent with an id, or a request method sent without one',
    spec: '<rev>/basic/index.mdx "Notifications": "Notifications MUST NOT include an ID"',
  },
  'capability.client-undeclared': {
    summary:
      'the server asks for something (sampling, roots, elicitation, a mode of it, tasks) the client did not declare',
    spec: '2025-11-25/basic/lifecycle.mdx "Capability Negotiation": "Only use capabilities that were successfully negotiated"; 2025-11-25/client/sampling.mdx, client/roots.mdx, client/elicitation.mdx "Capabilities"; 2026-07-28/basic/patterns/mrtr.mdx: "Servers MUST NOT send an inputRequests that the client has not declared support for"',
  },
  'modern.protocol-version-missing': {
    summary: `a 2026-07-28 request without params._meta["${META_KEYS.protocolVersion}"]`,
    spec: '2026-07-28/basic/index.mdx "_meta" and schema.ts RequestMetaObject (required); 2026-07-28/changelog.mdx item 2',
  },
  'modern.client-capabilities-missing': {
    summary: `a 2026-07-28 request without params._meta["${META_KEYS.clientCapabilities}"]`,
    spec: '2026-07-28/basic/index.mdx "_meta" and schema.ts RequestMetaObject (required)',
  },
  'initialize.version-unsupported': {
    summary:
      'the initialize result names a protocolVersion the client did not offer and that is no published handshake revision',
    spec: '<rev>/basic/lifecycle.mdx "Version Negotiation": the server answers with the requested version or "another protocol version it supports"',
  },
  'result.initialize': {
    summary: 'an initialize result lacks protocolVersion, capabilities or serverInfo {name, version}',
    spec: '<rev>/basic/lifecycle.mdx "Initialization"; schema.ts InitializeResult',
  },
  'result.discover': {
    summary: 'a server/discover result lacks supportedVersions (strings) or capabilities',
    spec: '2026-07-28/server/discover.mdx; schema.ts DiscoverResult',
  },
  'result.tools-list': {
    summary: 'a tools/list result without a tools array of {name, inputSchema: {type: "object"}}',
    spec: '<rev>/server/tools.mdx "Listing Tools", "Tool"; schema.ts Tool ("type: object" is required at the root of inputSchema)',
  },
  'result.tools-call': {
    summary:
      'a tools/call result without a content array of well-formed typed blocks (or a malformed structuredContent/isError)',
    spec: '<rev>/server/tools.mdx "Tool Result"; schema.ts CallToolResult, ContentBlock',
  },
  'result.resources-list': {
    summary: 'a resources/list result without a resources array of {uri, name}',
    spec: '<rev>/server/resources.mdx "Listing Resources"; schema.ts Resource',
  },
  'result.resource-templates-list': {
    summary: 'a resources/templates/list result without a resourceTemplates array of {uriTemplate, name}',
    spec: '<rev>/server/resources.mdx "Resource Templates"; schema.ts ResourceTemplate',
  },
  'result.resources-read': {
    summary: 'a resources/read result whose contents are not {uri} with a text or blob string',
    spec: '<rev>/server/resources.mdx "Reading Resources"; schema.ts TextResourceContents, BlobResourceContents',
  },
  'result.prompts-list': {
    summary: 'a prompts/list result without a prompts array of {name}',
    spec: '<rev>/server/prompts.mdx "Listing Prompts"; schema.ts Prompt',
  },
  'result.prompts-get': {
    summary: 'a prompts/get result whose messages are not {role: "user"|"assistant", content: block}',
    spec: '<rev>/server/prompts.mdx "Getting a Prompt", "PromptMessage"; schema.ts PromptMessage, Role',
  },
  'result.completion': {
    summary: 'a completion/complete result without completion.values (at most 100 strings)',
    spec: '<rev>/server/utilities/completion.mdx; schema.ts CompleteResult',
  },
  'result.next-cursor': {
    summary: 'a paginated result whose nextCursor is not a string',
    spec: '<rev>/server/utilities/pagination.mdx: "The cursor is an opaque string token"',
  },
  'result.result-type': {
    summary: 'a 2026-07-28 result without resultType, or with a value the client does not know',
    spec: '2026-07-28/basic/index.mdx "Responses": "The result MUST include a resultType field"; unknown values "MUST be considered invalid"',
  },
  'result.input-required': {
    summary: 'an input_required result on a method that cannot have one, or without inputRequests/requestState',
    spec: '2026-07-28/basic/patterns/mrtr.mdx: only tools/call, prompts/get, resources/read; "At least one of inputRequests or requestState MUST be present"',
  },
  'result.cache': {
    summary: 'a cacheable 2026-07-28 result without an integer ttlMs >= 0 or a cacheScope of "public"/"private"',
    spec: '2026-07-28/server/utilities/caching.mdx; schema.ts CacheableResult',
  },
} as const satisfies Record<string, RuleInfo>;

/** The id of one of mcpwire's own rules, e.g. `jsonrpc.id-type`. */
export type RuleId = keyof typeof MESSAGE_RULES;
