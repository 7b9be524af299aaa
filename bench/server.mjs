#!/usr/bin/env node
// The benchmark's stdio server: newline-delimited JSON around ./responses.mjs.
//   node bench/server.mjs [--tools N]
// Exits when stdin ends.
import { handle } from './responses.mjs';

// Split on '\n' scanning each chunk once; the responses to one chunk go out in one write.
let partial = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  let out = '';
  let start = 0;
  let nl;
  while ((nl = chunk.indexOf('\n', start)) !== -1) {
    let line = chunk.slice(start, nl);
    if (partial.length > 0) {
      partial.push(line);
      line = partial.join('');
      partial = [];
    }
    start = nl + 1;
    out += handle(line);
  }
  if (start < chunk.length) partial.push(chunk.slice(start));
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
