#!/usr/bin/env node
// `npm run demo`: start the reference server installed by `npm install`
// (@modelcontextprotocol/server-everything, over stdio), detect its era, list what it offers,
// call a tool, read a resource, render a prompt, and print what happened on the way.
import { createRequire } from 'node:module';
import path from 'node:path';
import { McpClient } from '../dist/index.js';

const require = createRequire(import.meta.url);
const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
const server = path.join(path.dirname(pkg), 'dist', 'index.js');

const started = performance.now();
const ms = () => `${(performance.now() - started).toFixed(0)} ms`.padStart(7);
const say = (text) => console.log(`${ms()}  ${text}`);

say(`spawning: node ${path.relative(process.cwd(), server)} stdio`);
const client = await McpClient.connect(
  { command: process.execPath, args: [server, 'stdio'] },
  { name: 'everything', onStderr: (line) => say(`server stderr: ${line}`) },
);
try {
  say(`connected: era ${client.era}, protocol ${client.protocolVersion}, pid ${client.pid}`);
  say(`server: ${client.serverInfo?.title ?? client.serverInfo?.name} ${client.serverInfo?.version ?? ''}`);
  say(`capabilities: ${Object.keys(client.capabilities).join(', ')}`);

  const tools = await client.listTools();
  say(`${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);
  const resources = await client.listResources();
  say(
    `${resources.length} resources, e.g. ${resources
      .slice(0, 3)
      .map((r) => r.uri)
      .join(', ')}`,
  );
  const templates = await client.listResourceTemplates();
  say(`${templates.length} resource templates: ${templates.map((t) => t.uriTemplate).join(', ')}`);
  const prompts = await client.listPrompts();
  say(`${prompts.length} prompts: ${prompts.map((p) => p.name).join(', ')}`);

  const echo = await client.callTool('echo', { message: 'hello from mcpwire' });
  say(`tools/call echo -> ${JSON.stringify(echo.content[0])}`);

  const sum = await client.callTool('get-sum', { a: 2, b: 3 });
  say(`tools/call get-sum(2, 3) -> ${sum.content.map((c) => c.text).join(' ')}`);

  if (resources[0]) {
    const read = await client.readResource(resources[0].uri);
    const first = read.contents[0];
    say(
      `resources/read ${resources[0].uri} -> ${first?.mimeType ?? ''} ${('text' in first ? first.text : first.blob).replace(/\s+/g, ' ').slice(0, 60)}…`,
    );
  }
  const prompt = await client.getPrompt('simple-prompt');
  say(`prompts/get simple-prompt -> ${prompt.messages.length} message(s)`);
} finally {
  await client.close();
  say('closed: server process stopped');
}
