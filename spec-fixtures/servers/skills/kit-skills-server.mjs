#!/usr/bin/env node
/**
 * A kit server (`mcpwire/server` from dist/: run `npm run build` first) publishing four skills,
 * with pages of two entries so `skills/list` takes two pages:
 *   skill://git-workflow               generated SKILL.md (license, metadata), references/BRANCHING.md
 *   skill://pdf-processing             given SKILL.md, references/FORMS.md, scripts/extract.py,
 *                                      templates/invoice.md, templates/regional/eu-invoice.md, assets/logo.png (bytes)
 *   skill://acme/billing/refunds       generated, prefix acme/billing, examples/email.md
 *   skill://daily-report               generated, no other file
 * and one tool `echo`.
 *
 * usage: node kit-skills-server.mjs            serves stdin/stdout; exits when stdin ends
 *        node kit-skills-server.mjs --http     serves http://127.0.0.1:PORT/mcp (port chosen by the OS),
 *                                              prints {"port":N} on stdout; ends on SIGTERM
 */
import http from 'node:http';
import { createHttpHandler, McpServer, StdioServerTransport } from 'mcpwire/server';

const server = new McpServer({ name: 'kit-skills', version: '1.0.0', pageSize: 2, logger: () => undefined });
server.registerTool({
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});
server.registerSkill({
  name: 'git-workflow',
  description: "Follow this team's Git conventions for branching and commits",
  instructions: '# Git workflow\n\nRead `references/BRANCHING.md` before you branch.\n',
  frontmatter: { license: 'Apache-2.0', metadata: { version: '1.2.0', owner: 'platform-team' } },
  files: { 'references/BRANCHING.md': '# Branching\n\nOne branch per change: `feature/<issue>`.\n' },
});
server.registerSkill({
  name: 'pdf-processing',
  description: 'Extract, fill, and assemble PDF documents',
  files: {
    'SKILL.md':
      '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: 2.1.0\n---\n\n# PDF processing\n\nChoose the matching template from `templates/`.\n',
    'references/FORMS.md': '# Forms\n\nFields are named `field_<n>`. Ünïcödé is fine.\n',
    'scripts/extract.py': 'import sys\nprint(open(sys.argv[1], "rb").read()[:4])\n',
    'templates/invoice.md': '# Invoice\n\nTotal: {{total}}\n',
    'templates/regional/eu-invoice.md': '# EU invoice\n\nVAT: {{vat}}\n',
    'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]),
  },
});
server.registerSkill({
  name: 'refunds',
  prefix: 'acme/billing',
  description: 'Process customer refund requests per company policy',
  instructions: '# Refunds\n\nSee `examples/email.md`.\n',
  files: { 'examples/email.md': 'Dear customer,\n\nYour refund is on its way.\n' },
});
server.registerSkill({
  name: 'daily-report',
  description: "Assemble today's operational report",
  instructions: 'Gather the numbers, then write three lines.',
});

if (process.argv.includes('--http')) {
  const handler = createHttpHandler(server, { path: '/mcp' });
  const listener = http.createServer(handler);
  listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));
  process.once('SIGTERM', async () => {
    await handler.close({ graceMs: 1000 });
    await server.close();
    listener.closeAllConnections();
    listener.close();
  });
} else {
  const session = server.connect(new StdioServerTransport());
  await session.closed;
  await server.close();
}
