#!/usr/bin/env node
/**
 * A reference client on the official SDK (@modelcontextprotocol/sdk 1.x, a dev dependency), for
 * comparing against mcpwire's test/conformance/client.mjs on the same scenarios:
 *
 *   node scripts/conformance.mjs --client test/conformance/sdk-client.mjs
 *
 * Same contract as client.mjs: the server URL is the last argument, the scenario is
 * MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT carries scenario data when the suite gives
 * some. It does for each scenario what an ordinary SDK 1.x application would do (the SDK speaks
 * revisions up to 2025-11-25, so the 2026-07-28 scenarios measure how far a legacy client gets).
 * Exit code 0 on success, 1 with a message otherwise (an unknown scenario included).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** Connects with elicitation (form) declared; elicitation answers accept with the schema defaults. */
async function connect() {
  const client = new Client(
    { name: 'sdk-conformance-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const content = {};
    for (const [key, property] of Object.entries(request.params.requestedSchema?.properties ?? {})) {
      if (property.default !== undefined) content[key] = property.default;
    }
    return { action: 'accept', content };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return client;
}

/** Lists tools, resources and prompts and uses each once (what the header scenarios look at). */
async function exercise(client) {
  const calls = new Map((context.toolCalls ?? []).map((call) => [call.name, call.arguments]));
  const { tools } = await client.listTools();
  for (const tool of tools)
    await client
      .callTool({ name: tool.name, arguments: calls.get(tool.name) ?? {} })
      .catch((e) => console.error(`tools/call ${tool.name}: ${e.message}`));
  const caps = client.getServerCapabilities() ?? {};
  if (caps.resources) {
    const { resources } = await client.listResources();
    for (const resource of resources)
      await client
        .readResource({ uri: resource.uri })
        .catch((e) => console.error(`resources/read ${resource.uri}: ${e.message}`));
  }
  if (caps.prompts) {
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts)
      await client
        .getPrompt({ name: prompt.name })
        .catch((e) => console.error(`prompts/get ${prompt.name}: ${e.message}`));
  }
}

const SCENARIOS = {
  async initialize(client) {
    await client.listTools();
  },
  async tools_call(client) {
    await client.callTool({ name: 'add_numbers', arguments: { a: 2, b: 3 } });
  },
  async 'elicitation-sep1034-client-defaults'(client) {
    await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
  },
  async 'sse-retry'(client) {
    await client.callTool({ name: 'test_reconnection', arguments: {} });
  },
  async 'request-metadata'(client) {
    await client.listTools();
  },
  async 'sep-2322-client-request-state'(client) {
    const { tools } = await client.listTools();
    for (const tool of tools)
      await client
        .callTool({ name: tool.name, arguments: {} })
        .catch((e) => console.error(`tools/call ${tool.name}: ${e.message}`));
  },
  'http-standard-headers': exercise,
  'http-custom-headers': exercise,
  'http-invalid-tool-headers': exercise,
  async 'json-schema-ref-no-deref'(client) {
    await client.listTools();
  },
  async 'json-schema-2020-12-preservation'(client) {
    const { tools } = await client.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal?.inputSchema ?? {} } });
  },
};

const run = SCENARIOS[scenario];
if (!run || !url) {
  console.error(
    `sdk-client: unknown scenario ${JSON.stringify(scenario)}; known: ${Object.keys(SCENARIOS).join(', ')}`,
  );
  process.exit(1);
}
try {
  const client = await connect();
  await run(client);
  await client.close();
  process.exit(0);
} catch (error) {
  console.error(`${scenario}: ${error?.stack ?? error}`);
  process.exit(1);
}
