// Module hooks (loaded by record-loads.mjs on Node's hooks thread): appends the URL of every module
// the process loads to the file named by MCPWIRE_RECORD_LOADS, one per line.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  appendFileSync(process.env.MCPWIRE_RECORD_LOADS, `${url}\n`);
  return next(url, context);
}
