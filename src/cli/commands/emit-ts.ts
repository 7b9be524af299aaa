/**
 * `mcpwire emit-ts [-o FILE] [server]`: a TypeScript module for the server's tools (input and
 * output types, and `typedTools(client)`, a typed wrapper over `McpClient`), written to FILE or,
 * without `-o` (or with `-o -`), to stdout (with `--json`: in the envelope's `code`). What could
 * not be typed exactly is told on stderr as a warning (and in `--json`); the module still compiles.
 * The generator (json-schema-to-typescript, an optional peer dependency) is loaded before any
 * server starts: without it the command exits 2 (`DEPENDENCY_MISSING`) naming the install.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emitToolsModule } from '../../codegen/emit-tools.js';
import { loadSchemaGenerator } from '../../codegen/schema-types.js';
import { flag, stringOption, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { withServerSession } from '../session-run.js';

/** Runs `mcpwire emit-ts`. */
export async function emitTsCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  await loadSchemaGenerator();
  const emitted = await withServerSession(args, io, async (client) => {
    const tools = client.capabilities.tools ? await client.listTools() : [];
    const module = await emitToolsModule({ tools, server: client.name, serverInfo: client.serverInfo });
    return { ...module, tools, server: client.name };
  });
  for (const warning of emitted.warnings) io.stderr.write(`warning: ${warning}\n`);
  const output = stringOption(args, 'output');
  const names = emitted.tools.map((t) => t.name);
  if ((output === undefined || output === '-') && flag(args, 'json'))
    return { json: { server: emitted.server, tools: names, warnings: emitted.warnings, code: emitted.code }, text: '' };
  if (output === undefined || output === '-') {
    io.stdout.write(emitted.code);
    return { json: undefined, text: '', silent: true };
  }
  const file = path.resolve(io.cwd, output);
  await writeAtomically(file, emitted.code);
  const typed = emitted.tools.filter((t) => t.outputSchema).length;
  return {
    json: { file, server: emitted.server, tools: names, warnings: emitted.warnings },
    text: `wrote ${file}: ${emitted.tools.length} tool${emitted.tools.length === 1 ? '' : 's'} of ${emitted.server} (${typed} with typed output)`,
  };
}

/** Writes `file` whole or not at all: a temporary file beside it, renamed over it. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    // The system's words without the temporary file's name (`ENOENT: no such file or directory`).
    const why = (error as Error).message.replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '');
    throw new CliError('OUTPUT_UNWRITABLE', `cannot write ${file}: ${why}`, EXIT.usage);
  }
}
