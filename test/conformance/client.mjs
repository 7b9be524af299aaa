#!/usr/bin/env node
/**
 * mcpwire's client for the official conformance suite (@modelcontextprotocol/conformance):
 * `MCP_CONFORMANCE_SCENARIO=<name> node test/conformance/client.mjs <server URL>`. The suite
 * puts the URL last and names the scenario in the environment; this client does what the
 * scenario's server expects a client to do, through mcpwire's public API only (dist/, built by
 * `npm run build`). Exit code 0 on success, 1 with a message otherwise.
 */
import { McpClient } from '../../dist/index.js';
import { exchangeForIdJag, MemoryTokenStore } from '../../dist/auth/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
/** Set by newer suites: the revision the scenario runs at. */
const pinned = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
/** Scenario data some scenarios hand over (http-custom-headers: the exact tool arguments to send). */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** An elicitation answer that takes every field's `default`, or a plausible value of its type. */
function fromDefaults(schema) {
  const content = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[key] = property.default;
    else if (Array.isArray(property.enum) && property.enum.length > 0) content[key] = property.enum[0];
    else if (property.type === 'boolean') content[key] = true;
    else if (property.type === 'integer' || property.type === 'number') content[key] = 1;
    else if (property.type === 'string') content[key] = 'conformance';
  }
  return content;
}

const handlers = {
  elicitation: async (params) =>
    params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: fromDefaults(params.requestedSchema) },
  sampling: async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'conformance sample' },
    model: 'mcpwire-conformance',
  }),
  roots: async () => [{ uri: 'file:///tmp/conformance', name: 'conformance' }],
};

/** Values for a tool's arguments: what each property's name and type ask for (header scenarios). */
function argumentsFor(tool) {
  const out = {};
  const properties = tool.inputSchema?.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    const type = Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
    if (/non_?ascii/i.test(key)) out[key] = 'Hello, 世界';
    else if (/^whitespace/i.test(key)) out[key] = ' padded ';
    else if (/leading_space/i.test(key)) out[key] = ' leading';
    else if (/trailing_space/i.test(key)) out[key] = 'trailing ';
    else if (/internal_space/i.test(key)) out[key] = 'us west 1';
    else if (/control_char/i.test(key)) out[key] = 'a\u0001b';
    else if (/crlf/i.test(key)) out[key] = 'line1\r\nline2';
    else if (/^tab/i.test(key)) out[key] = '\tindented';
    else if (/^empty/i.test(key)) out[key] = '';
    else if (/verbose/i.test(key) && tool.name.endsWith('_null')) out[key] = null;
    else if (type === 'integer') out[key] = key === 'a' || key === 'b' ? 2 : 42;
    else if (type === 'number') out[key] = key === 'a' || key === 'b' ? 3 : 1.5;
    else if (type === 'boolean') out[key] = true;
    else if (type === 'string') out[key] = key === 'region' ? 'us-west1' : `value-${key}`;
    else if (type === 'object') out[key] = {};
    else if (type === 'array') out[key] = [];
  }
  return out;
}

/**
 * The browser step of the suite's auth scenarios: its mock authorization server approves at once
 * and redirects to our loopback callback, so "the user" is a GET of the URL and of its redirect.
 */
async function autoApprove(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  const callback = await fetch(new URL(location, authorizationUrl));
  await callback.body?.cancel();
}

/** The auth option of every scenario: a store for this run, the suite's pre-registered client when it gives one. */
const auth = {
  store: new MemoryTokenStore(),
  onAuthorizationUrl: autoApprove,
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id && context.client_secret && !context.idp_id_token
    ? { client: { clientId: context.client_id, clientSecret: context.client_secret } }
    : {}),
  ...(context.client_id && context.private_key_pem
    ? {
        client: {
          clientId: context.client_id,
          privateKey: context.private_key_pem,
          signingAlgorithm: context.signing_algorithm ?? 'ES256',
        },
      }
    : {}),
  ...(scenario?.startsWith('auth/client-credentials') ? { grant: 'client_credentials' } : {}),
  // Workload identity: the suite's workload JWT is the assertion (RFC 7523), for the public client it names.
  ...(context.valid_jwt
    ? { grant: 'jwt_bearer', client: { clientId: context.client_id }, assertion: () => context.valid_jwt }
    : {}),
  // Enterprise-managed authorization: the user's ID token exchanged at the IdP for an ID-JAG, presented as the
  // assertion.
  ...(context.idp_id_token
    ? {
        grant: 'jwt_bearer',
        client: { clientId: context.client_id, clientSecret: context.client_secret },
        assertion: ({ issuer, resource }) =>
          exchangeForIdJag({
            tokenEndpoint: context.idp_token_endpoint,
            clientId: context.idp_client_id,
            idToken: context.idp_id_token,
            audience: issuer,
            resource,
          }),
      }
    : {}),
};

async function connect(options = {}) {
  return McpClient.connect(
    { url, auth },
    {
      name: 'conformance',
      handlers,
      missingCapability: 'empty',
      ...(pinned ? { protocolVersion: pinned } : {}),
      ...options,
    },
  );
}

/**
 * Lists and calls every tool (with the suite's arguments when it gives them), reads every resource, gets every prompt.
 */
async function exercise(client, { callTools = true } = {}) {
  const tools = await client.listTools();
  const given = new Map((context.toolCalls ?? []).map((call) => [call.name, call.arguments]));
  if (callTools)
    for (const tool of tools)
      await client
        .callTool(tool.name, given.get(tool.name) ?? argumentsFor(tool))
        .catch((e) => console.error(`tools/call ${tool.name}: ${e.message}`));
  if (client.capabilities.resources) {
    for (const resource of await client.listResources().catch(() => []))
      await client
        .readResource(resource.uri)
        .catch((e) => console.error(`resources/read ${resource.uri}: ${e.message}`));
  }
  if (client.capabilities.prompts) {
    for (const prompt of await client.listPrompts().catch(() => [])) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, `value-${a.name}`]));
      await client.getPrompt(prompt.name, args).catch((e) => console.error(`prompts/get ${prompt.name}: ${e.message}`));
    }
  }
}

/**
 * The skills host (SEP-2640) is mcpwire's own `client.skills`: listing reads no file; loading a
 * skill reads its SKILL.md first (verified against its entry: size, digest, frontmatter), then
 * its other files, each verified; a refused SKILL.md refuses the rest of its skill.
 */
async function loadSkill(client, entry) {
  await client.skills.read(entry.uri);
  for (const resource of Array.isArray(entry.resources) ? entry.resources : [])
    if (resource.uri !== entry.uri) await client.skills.read(resource.uri);
}

async function loadEverySkill() {
  const client = await connect();
  const { skills, invalid } = await client.skills.list();
  for (const bad of invalid) console.error(`skill entry ${bad.uri ?? bad.index} refused: ${bad.reason}`);
  for (const entry of skills) {
    // A skill that fails verification is not loaded; the scenario wants exactly that refusal.
    await loadSkill(client, entry).catch((e) => console.error(`skill ${entry.uri} rejected: ${e.message}`));
  }
  await client.close();
}

const SCENARIOS = {
  async initialize() {
    const client = await connect();
    await client.listTools();
    await client.close();
  },
  async tools_call() {
    const client = await connect();
    const [tool] = await client.listTools();
    if (tool) await client.callTool(tool.name, { a: 2, b: 3 });
    await client.close();
  },
  async 'elicitation-sep1034-client-defaults'() {
    const client = await connect();
    await client.listTools();
    await client.callTool('test_client_elicitation_defaults', {});
    await client.close();
  },
  async 'sse-retry'() {
    const client = await connect();
    await client.listTools();
    await client.callTool('test_reconnection', {});
    await client.close();
  },
  async 'request-metadata'() {
    const client = await connect();
    await client.ping();
    await client.listTools();
    await client.close();
  },
  async 'sep-2322-client-request-state'() {
    const client = await connect();
    const names = (await client.listTools()).map((t) => t.name);
    // The isolation check wants an unrelated call beside a multi-round one.
    const order = ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type'];
    for (const name of [...order.filter((n) => names.includes(n)), ...names.filter((n) => !order.includes(n))]) {
      await client.callTool(name, {}).catch((e) => console.error(`tools/call ${name}: ${e.message}`));
    }
    await client.close();
  },
  async 'http-standard-headers'() {
    const client = await connect();
    await exercise(client);
    await client.close();
  },
  async 'http-custom-headers'() {
    const client = await connect();
    await exercise(client);
    await client.close();
  },
  async 'http-invalid-tool-headers'() {
    const client = await connect();
    // Every tool the client keeps is called; the invalid ones must not be in the list.
    await exercise(client);
    await client.close();
  },
  async 'json-schema-ref-no-deref'() {
    const client = await connect();
    await client.listTools();
    await client.close();
  },
  async 'json-schema-2020-12-preservation'() {
    const client = await connect();
    const tools = await client.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool not listed');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
    await client.close();
  },
  async 'sep-2640-client-no-prefetch'() {
    // Listing skills must not read any of their files: nothing is loaded here.
    const client = await connect();
    await client.skills.list();
    await client.close();
  },
  'sep-2640-client-verify-digest': loadEverySkill,
  'sep-2640-client-verify-size': loadEverySkill,
  'sep-2640-client-verify-frontmatter': loadEverySkill,
};
SCENARIOS['tools-call'] = SCENARIOS.tools_call;
SCENARIOS['elicitation-defaults'] = SCENARIOS['elicitation-sep1034-client-defaults'];

/** Every auth scenario: log in through the connect, then use the server (a tool call may need a step-up). */
async function authorized() {
  const client = await connect();
  await exercise(client);
  await client.close();
}

const run = SCENARIOS[scenario] ?? (scenario?.startsWith('auth/') ? authorized : undefined);
if (!run || !url) {
  console.error(
    `usage: MCP_CONFORMANCE_SCENARIO=<scenario> node test/conformance/client.mjs <url>\nunknown scenario ${JSON.stringify(scenario)}; known: ${Object.keys(SCENARIOS).join(', ')}`,
  );
  process.exit(1);
}
try {
  await run();
  process.exit(0);
} catch (error) {
  console.error(`${scenario}: ${error?.stack ?? error}`);
  process.exit(1);
}
