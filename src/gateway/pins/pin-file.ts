/**
 * The pins file (`~/.mcpwire/gateway-pins.json`) on disk: its JSON shape, reading it strictly,
 * writing it atomically, and a lock beside it for a read-change-write. A file that does not
 * parse, or whose shape is wrong anywhere, is a `CONFIG_INVALID` error naming the file (and the
 * field): it is never read as empty, so it is never overwritten and the approvals in it are never
 * lost.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withFileLock } from '../../auth/file-lock.js';
import { randomHex } from '../../manager/hashing.js';
import { ConfigError, errorMessage } from '../../protocol/errors.js';
import type { Tool } from '../../protocol/types.js';

/** A definition a person (or trust on first use) approved. */
export interface PinnedDefinition {
  /** `toolFingerprint` of `definition`. */
  fingerprint: string;
  /** The pinned fields of the tool as approved (`pinnedView`: no `_meta`). */
  definition: Tool;
  /** ISO time of the approval. */
  approvedAt: string;
}

/** A definition seen since, different from the approved one (or, without trust on first use, the first one seen). */
export interface PendingDefinition {
  fingerprint: string;
  definition: Tool;
  /** ISO time it was first seen with this fingerprint. */
  seenAt: string;
}

/**
 * The pin of one gateway tool. `server` and `tool` say where it comes from (as last seen; for
 * display); the pin's identity is its gateway name and the fingerprints.
 */
export interface PinRecord {
  server: string;
  tool: string;
  /** Absent for a tool first seen without trust on first use and not approved since. */
  approved?: PinnedDefinition;
  /** Present while a definition waits for approval; the tool is withheld meanwhile. */
  pending?: PendingDefinition;
}

/** Pins by gateway tool name (`github__create_issue`). */
export type Pins = Map<string, PinRecord>;

/** What a read found: the pins, and the file's exact text (`''` when there is no file). */
export interface PinFileContent {
  pins: Pins;
  text: string;
}

/** `<homeDir>/.mcpwire/gateway-pins.json` (default home: `os.homedir()`). */
export function defaultPinsFile(homeDir: string = os.homedir()): string {
  return path.join(homeDir, '.mcpwire', 'gateway-pins.json');
}

/**
 * Reads and checks the pins file. No file is no pins. Rejects with `ConfigError`
 * (`CONFIG_INVALID`, `file` set) for text that is not JSON or not a pins file; other file-system
 * errors (EACCES, EISDIR) reject as Node reports them.
 */
export async function readPinFile(file: string): Promise<PinFileContent> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { pins: new Map(), text: '' };
    throw error;
  }
  return { pins: parsePins(text, file), text };
}

/** The pins in `text` (the file's content); throws `ConfigError` naming `file` as {@link readPinFile} rejects. */
export function parsePins(text: string, file: string): Pins {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`gateway pins file is not valid JSON (${errorMessage(error)}); fix or remove it`, {
      cause: error,
      file,
    });
  }
  const broken = (field: string, what: string) =>
    new ConfigError(`gateway pins file: ${field} ${what}; fix or remove the file`, { file, field });
  if (!isObject(value)) throw broken('the top level', 'is not an object');
  if (value.version !== 1) throw broken('version', 'is not 1');
  if (!isObject(value.pins)) throw broken('pins', 'is not an object');
  const pins: Pins = new Map();
  for (const [name, record] of Object.entries(value.pins)) {
    const at = `pins.${name}`;
    if (!isObject(record)) throw broken(at, 'is not an object');
    for (const key of ['server', 'tool'] as const)
      if (typeof record[key] !== 'string') throw broken(`${at}.${key}`, 'is not a string');
    const out: PinRecord = { server: record.server as string, tool: record.tool as string };
    for (const [key, time] of [
      ['approved', 'approvedAt'],
      ['pending', 'seenAt'],
    ] as const) {
      const entry = record[key];
      if (entry === undefined) continue;
      if (!isObject(entry)) throw broken(`${at}.${key}`, 'is not an object');
      if (typeof entry.fingerprint !== 'string') throw broken(`${at}.${key}.fingerprint`, 'is not a string');
      if (!isObject(entry.definition)) throw broken(`${at}.${key}.definition`, 'is not an object');
      if (typeof entry[time] !== 'string') throw broken(`${at}.${key}.${time}`, 'is not a string');
      Object.assign(out, { [key]: entry });
    }
    pins.set(name, out);
  }
  return pins;
}

/** The file's text for `pins`: names sorted, two-space indented, a final newline. */
export function pinsText(pins: Pins): string {
  const sorted = Object.fromEntries([...pins].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ version: 1, pins: sorted }, null, 2)}\n`;
}

/**
 * Writes `text` to `file` atomically: its directory made if missing, a temp file (mode 0600) in the
 * same directory, then a rename, so a reader sees the old file or the new one, never half of one.
 */
export async function writePinFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** How long {@link withPinFileLock} waits for another process's lock. */
const LOCK_WAIT_MS = 10_000;
/** A lock not kept fresh for this long was left by a process that died, and is broken. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs `task` (a read, change and write of `file`) holding the file's lock across processes: a
 * directory `FILE.lock` beside it (`proper-lockfile`: `mkdir` is atomic, the holder keeps its mtime
 * fresh, and a lock not refreshed for 10 s, its holder dead, is broken). So two processes changing
 * pins at the same moment take turns instead of one overwriting the other. Waits up to 10 s for a
 * held lock, then rejects with `TIMEOUT` naming it; with the signal's reason when `signal` aborts
 * the wait (the task has not run then); otherwise as `task` does.
 */
export async function withPinFileLock<T>(file: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(
    { file, staleMs: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS, what: 'gateway pins', firstPauseMs: 2 },
    task,
    signal,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
