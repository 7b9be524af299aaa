// Module resolution hooks (node:module register) that append each module's resolved URL, one a
// line, to the file named by TRACE_IMPORTS_FILE: a test runs a process with
// `--import <TRACE_IMPORTS>` (todo-server.ts) and reads which modules it loaded.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.TRACE_IMPORTS_FILE, `${resolved.url}\n`);
  return resolved;
}
