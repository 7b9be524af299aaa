#!/usr/bin/env node
// A scripted MCP host for the stdio proxy tests: writes the steps of a script to its stdout (the
// proxy's stdin) byte for byte, waits where the script says for answer lines on its stdin (the
// proxy's stdout), then ends its stdout and saves every byte it received.
//
// usage: node stdio-host.mjs <script.json> <received-file>
// script: [{ "write": "<base64>" } | { "await": <lines received so far> }, ...]
import { readFileSync, writeFileSync } from 'node:fs';

const [scriptFile, receivedFile] = process.argv.slice(2);
const steps = JSON.parse(readFileSync(scriptFile, 'utf8'));
const received = [];
let lines = 0;
let wake;
process.stdin.on('data', (chunk) => {
  received.push(chunk);
  for (const byte of chunk) if (byte === 0x0a) lines++;
  wake?.();
});

const until = (count) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host: ${lines} of ${count} answer lines after 10 s`)), 10_000);
    wake = () => {
      if (lines < count) return;
      clearTimeout(timer);
      resolve();
    };
    wake();
  });

try {
  for (const step of steps) {
    if ('write' in step)
      await new Promise((resolve) => process.stdout.write(Buffer.from(step.write, 'base64'), resolve));
    else await until(step.await);
  }
  process.stdout.end();
  writeFileSync(receivedFile, Buffer.concat(received));
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  writeFileSync(receivedFile, Buffer.concat(received));
  process.exit(2);
}
