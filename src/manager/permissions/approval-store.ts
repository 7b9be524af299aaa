/**
 * Decisions about servers from untrusted (project) config files, persisted so the user is asked
 * once per definition. A decision is tied to the project file, the server name and the
 * fingerprint of the server's effective config: an edited server needs approving again.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, errorMessage, McpError } from '../../protocol/errors.js';
import type { ManagedServer } from '../servers/managed-server.js';
import { randomHex } from '../hashing.js';
import { configFingerprint } from '../config/fingerprint.js';

/** What a decision is about: a server of a file, in one exact definition. */
export interface ApprovalKey {
  /** The project config file that defines the server (absolute path). */
  file: string;
  /** The server's name in that file. */
  server: string;
  /** {@link configFingerprint} of the server's effective config. */
  fingerprint: string;
}

/** One stored decision. */
export interface ApprovalRecord extends ApprovalKey {
  approved: boolean;
  /** ISO time of the decision. */
  decidedAt: string;
}

/** Where the store lives. */
export interface ApprovalStoreOptions {
  /** The JSON file (default `<homeDir>/.mcpwire/approvals.json`). */
  file?: string;
  /** Home directory for the default file (default `os.homedir()`). */
  homeDir?: string;
}

interface StoreFile {
  version: 1;
  approvals: ApprovalRecord[];
}

/**
 * The key of a loaded server: its provenance file, its name and its fingerprint. Throws
 * `INVALID_ARGUMENT` for a server without provenance (inline objects need no approval).
 */
export function approvalKeyOf(server: ManagedServer): ApprovalKey {
  if (!server.provenance)
    throw new McpError('INVALID_ARGUMENT', `server "${server.name}" has no provenance, so no approval key`);
  return { file: server.provenance.file, server: server.name, fingerprint: configFingerprint(server) };
}

/**
 * A JSON file of approval decisions. `get` answers for one exact definition; `set` records a
 * decision, replacing any earlier one for the same file and server (whatever its fingerprint).
 * Writes are atomic (a temp file in the same directory, then rename), re-read the file first so
 * decisions other processes stored meanwhile survive, and are serialised within one store.
 * A store file that is not valid JSON approves nothing, and `set` refuses to overwrite it
 * (`CONFIG_INVALID` naming the file) rather than lose its decisions.
 */
export class ApprovalStore {
  /** The file decisions are kept in. */
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: ApprovalStoreOptions = {}) {
    this.file = path.resolve(options.file ?? path.join(options.homeDir ?? os.homedir(), '.mcpwire', 'approvals.json'));
  }

  /**
   * The decision for exactly this definition: `true` approved, `false` denied, `undefined` never
   * decided, or decided for a different fingerprint (the server was edited since). Never rejects
   * for a missing or corrupt store file (both mean undecided).
   */
  async get(subject: ApprovalKey | ManagedServer): Promise<boolean | undefined> {
    const key = keyOf(subject);
    const stored = await this.read().catch(() => ({ version: 1, approvals: [] }));
    const record = stored.approvals.find((r) => r.file === key.file && r.server === key.server);
    return record && record.fingerprint === key.fingerprint ? record.approved : undefined;
  }

  /**
   * Records `approved` for this definition, replacing the earlier decision for the same file and
   * server. Rejects with `CONFIG_INVALID` when the store file is corrupt; file-system errors
   * (EACCES, ENOSPC) reject as Node reports them.
   */
  set(subject: ApprovalKey | ManagedServer, approved: boolean): Promise<void> {
    const key = keyOf(subject);
    return this.serialise(async () => {
      const stored = await this.read();
      const approvals = stored.approvals.filter((r) => !(r.file === key.file && r.server === key.server));
      approvals.push({ ...key, approved, decidedAt: new Date().toISOString() });
      await this.write({ version: 1, approvals });
    });
  }

  /** Forgets the decision for this file and server (any fingerprint). Idempotent. */
  delete(file: string, server: string): Promise<void> {
    return this.serialise(async () => {
      const stored = await this.read();
      const approvals = stored.approvals.filter((r) => !(r.file === file && r.server === server));
      if (approvals.length !== stored.approvals.length) await this.write({ version: 1, approvals });
    });
  }

  /** Every stored decision (a copy). Rejects with `CONFIG_INVALID` when the store file is corrupt. */
  async list(): Promise<ApprovalRecord[]> {
    return (await this.read()).approvals.map((r) => ({ ...r }));
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, approvals: [] };
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`approvals file is not valid JSON (${errorMessage(error)}); fix or remove it`, {
        cause: error,
        file: this.file,
      });
    }
    const approvals = (value as Partial<StoreFile> | null)?.approvals;
    if (!Array.isArray(approvals))
      throw new ConfigError('approvals file has no "approvals" list; fix or remove it', { file: this.file });
    return { version: 1, approvals: approvals.filter(isRecord) };
  }

  private async write(content: StoreFile): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    // Same directory, so rename is atomic: readers see the old file or the new one, never half.
    const temp = `${this.file}.${process.pid}.${randomHex(4)}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

function keyOf(subject: ApprovalKey | ManagedServer): ApprovalKey {
  return 'fingerprint' in subject &&
    typeof subject.fingerprint === 'string' &&
    'server' in subject &&
    typeof subject.server === 'string'
    ? { file: subject.file, server: subject.server, fingerprint: subject.fingerprint }
    : approvalKeyOf(subject as ManagedServer);
}

function isRecord(value: unknown): value is ApprovalRecord {
  const r = value as Partial<ApprovalRecord> | null;
  return (
    !!r &&
    typeof r.file === 'string' &&
    typeof r.server === 'string' &&
    typeof r.fingerprint === 'string' &&
    typeof r.approved === 'boolean'
  );
}
