#!/usr/bin/env node
// Stands in front of a stdio server and logs the exact bytes on its stdin and stdout, so a test
// can compare them with what a host wrote and received. Exits as the server exits.
//
// usage: node wire-logger.mjs <dir> -- <command> [args...]
// writes <dir>/server-received.bin and <dir>/server-wrote.bin
import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [dir, separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || !command) throw new Error('usage: wire-logger.mjs <dir> -- <command> [args...]');
const receivedFile = path.join(dir, 'server-received.bin');
const wroteFile = path.join(dir, 'server-wrote.bin');
writeFileSync(receivedFile, '');
writeFileSync(wroteFile, '');

const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.on('data', (chunk) => {
  appendFileSync(receivedFile, chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (chunk) => {
  appendFileSync(wroteFile, chunk);
  process.stdout.write(chunk);
});
child.on('close', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
