#!/usr/bin/env node
// The scripted legacy server (same flags), except that before any line it writes that contains
// `junk please` (an echo of that text, say) it writes a line that is not JSON. Lets a test make a
// live, connected server send junk on stdout exactly when it wants.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('junk please')) write('this line is not JSON\n');
  return write(chunk, ...rest);
};
await import('../../spec-fixtures/servers/legacy/scripted-server.mjs');
