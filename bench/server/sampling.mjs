// What every server bench samples with: a server process's CPU (`/proc/<pid>/stat`, Linux), an
// NDJSON peer over a child's stdio, a child that prints `{"port":N}` once listening, `echo` calls
// kept `IN_FLIGHT` deep, and one measured loop after a warm-up. The client runs in the bench's own
// process, so the CPU counted is the server's alone.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const IN_FLIGHT = 64;
const ECHO = { name: 'echo', arguments: { text: 'hello' } };
const TICKS = 100; // USER_HZ on Linux

/** utime + stime of process `pid` (all its threads), in ms. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/** A child speaking NDJSON: `request(method, params)` resolves with the answer. */
export function startStdio(args, command = process.execPath, env = process.env) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env });
  const waiting = new Map();
  let buffer = '';
  let next = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      const resolve = waiting.get(message.id);
      if (resolve) {
        waiting.delete(message.id);
        resolve(message);
      }
    }
  });
  return {
    child,
    request(method, params) {
      const id = next++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

/** The legacy 2025-06-18 handshake every stdio server here speaks. */
export async function handshake(peer, which) {
  const init = await peer.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  if (!init.result) throw new Error(`${which}: initialize failed`);
  peer.notify('notifications/initialized');
}

/**
 * Starts `command args` and resolves with the port it prints as `{"port":N}` on stdout (or
 * `{"missing":"why"}`: the server is not built, resolved as `{ missing }`).
 */
export function startListening(args, command = process.execPath, env = process.env) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
  return new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) =>
      reject(new Error(`${[command, ...args].join(' ')} exited (${code}) before listening: ${errors}`)),
    );
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const said = JSON.parse(line);
      resolve(said.missing ? { child, missing: said.missing } : { child, port: said.port });
    });
  });
}

/** `calls` calls of `call`, `IN_FLIGHT` outstanding at every moment; each must have a result. */
export async function drive(peer, calls, call = ECHO) {
  await driveFor(peer, { calls }, call);
}

/** `warmUp` untimed calls, then `calls` timed ones: requests/s and the server's CPU µs per call. */
export async function measure(peer, pid, calls, warmUp = 500) {
  await drive(peer, warmUp);
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  await drive(peer, calls);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  return { rps: calls / seconds, cpuUsPerCall: (cpu * 1000) / calls };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Calls until `calls` were sent or `seconds` passed (whichever first), `IN_FLIGHT` outstanding;
 * resolves with the number answered.
 */
export async function driveFor(peer, { calls = Infinity, seconds = Infinity }, call = ECHO) {
  const stop = performance.now() + seconds * 1000;
  let sent = 0;
  const lane = async () => {
    while (sent < calls && performance.now() < stop) {
      sent++;
      const answer = await peer.request('tools/call', call);
      if (!answer.result) throw new Error(`echo failed: ${JSON.stringify(answer)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return sent;
}

/**
 * A warm-up (`warmUp` calls or `warmUpSeconds`, whichever ends first: a slow server tiers up in
 * fewer calls), then calls for `seconds`: requests/s and the server's CPU µs per call. Every
 * server gets the same time, however fast it is, so a run's length does not depend on the slowest.
 */
export async function measureFor(peer, pid, { seconds, warmUp = 3000, warmUpSeconds = 3 }) {
  await driveFor(peer, { calls: warmUp, seconds: warmUpSeconds });
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const calls = await driveFor(peer, { seconds });
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuMs(pid) - cpu0;
  return { calls, rps: calls / elapsed, cpuUsPerCall: (cpu * 1000) / calls };
}
