/**
 * Which definition of each gateway tool is approved, kept in a JSON file shared by the running
 * gateway and `mcpwire gateway approve|pins`. The gateway reports every tool it lists through
 * {@link PinStore.observe}: a tool whose definition changed since it was approved is withheld (out of
 * lists, its calls refused) until someone approves the change; a tool that changes back to its
 * approved definition is served again at once.
 *
 * Every change takes the file's lock (across processes), re-reads the file and applies itself to
 * what is there, so two processes (a gateway, `mcpwire gateway approve`) changing pins at the same
 * time never drop each other's approvals. The file is written only when something changed.
 */
import { mkdirSync, watch as watchDirectory } from 'node:fs';
import path from 'node:path';
import { McpError } from '../../protocol/errors.js';
import type { Tool } from '../../protocol/types.js';
import {
  defaultPinsFile,
  pinsText,
  readPinFile,
  withPinFileLock,
  writePinFile,
  type PendingDefinition,
  type PinRecord,
  type Pins,
} from './pin-file.js';
import { pinRefusal, type PinVerdict } from './pin-verdict.js';
import { changedFields, pinnedView, toolFingerprint } from './tool-fingerprint.js';

/** A tool as the gateway lists it: its gateway name, where it comes from, and its definition upstream. */
export interface ObservedTool {
  /** The gateway name (`github__create_issue`): the pin's key. */
  name: string;
  /** The upstream server's name. */
  server: string;
  /** The tool's name upstream. */
  tool: string;
  /** The definition the server listed (its `_meta` is ignored). */
  definition: Tool;
}

/** A tool {@link PinStore.observe} did not allow, and why (a sentence naming the approve command). */
export interface WithheldTool {
  name: string;
  state: 'unapproved' | 'changed';
  /** {@link pinRefusal}'s sentence. */
  reason: string;
}

/** A pin with its name, as {@link PinStore.list} gives it. */
export interface PinEntry extends PinRecord {
  name: string;
}

/** A pin waiting for approval, as {@link PinStore.pending} gives it. */
export interface PendingPin extends PinEntry {
  pending: PendingDefinition;
}

/** Options of {@link PinStore.observe}. */
export interface ObserveOptions extends ChangeOptions {
  /** Approve a tool seen for the first time (default true); false records it as pending instead. */
  trustOnFirstUse?: boolean;
}

/** Options of every change of a {@link PinStore}. */
export interface ChangeOptions {
  /** Abandons the wait for the file's lock (another process holds it): rejects with its reason, changes nothing. */
  signal?: AbortSignal;
}

/** Undoes a registration; idempotent. */
export type Disposer = () => void;

/**
 * The pins of one file. Reads ({@link check}, {@link list}, {@link pending}) answer from memory, as of
 * the last read or write; changes ({@link observe}, {@link approve}) are serialised within the store,
 * each re-reading the file first. {@link watch} follows changes other processes make.
 */
export class PinStore {
  private pins: Pins;
  /** The file's text as last read or written (`''`: no file), to tell others' changes from ours. */
  private text: string;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    /** The pins file (absolute). */
    readonly file: string,
    content: { pins: Pins; text: string },
  ) {
    this.pins = content.pins;
    this.text = content.text;
  }

  /**
   * Opens the pins in `file` (default `~/.mcpwire/gateway-pins.json`; resolved against the working
   * directory). A missing file is no pins (nothing is created until something is recorded).
   * Rejects with `ConfigError` (`CONFIG_INVALID`, naming the file) for a file that is not a pins
   * file; it is left as it is.
   */
  static async open(file: string = defaultPinsFile()): Promise<PinStore> {
    const absolute = path.resolve(file);
    return new PinStore(absolute, await readPinFile(absolute));
  }

  /**
   * How `definition` stands against the pin of `name`, from memory (see {@link PinVerdict}: serve
   * only `approved`; {@link pinRefusal} says why not). Pure: records nothing.
   */
  check(name: string, definition: Tool): PinVerdict {
    const record = this.pins.get(name);
    if (!record) return { state: 'new' };
    const approved = record.approved;
    if (!approved) return { state: 'unapproved' };
    const fingerprint = toolFingerprint(definition);
    if (fingerprint === approved.fingerprint) return { state: 'approved' };
    return {
      state: 'changed',
      approved: structuredClone(approved),
      now: { fingerprint, definition: pinnedView(definition) },
      fields: changedFields(approved.definition, definition),
    };
  }

  /**
   * Records what the gateway lists and says which tools it may serve. For each tool: first seen,
   * it is approved (with `trustOnFirstUse`, the default) or pending; the approved definition is
   * allowed (dropping any pending change: the server changed back); any other definition becomes
   * the pending one and is withheld. Pins of tools not in `tools` are kept as they are (their server
   * may be down). Writes the file only when a pin changed. Rejects with `CONFIG_INVALID` when the
   * file has been broken since (nothing is written), with `TIMEOUT` when another process holds the
   * file's lock for more than 10 s, with the signal's reason when `signal` aborts that wait, or as
   * the file system does.
   */
  observe(
    tools: readonly ObservedTool[],
    options: ObserveOptions = {},
  ): Promise<{ allowed: string[]; withheld: WithheldTool[] }> {
    const trust = options.trustOnFirstUse ?? true;
    return this.change(options.signal, (pins, now) => {
      const allowed: string[] = [];
      const withheld: WithheldTool[] = [];
      let changed = false;
      for (const { name, server, tool, definition } of tools) {
        const fingerprint = toolFingerprint(definition);
        const seen = { fingerprint, definition: pinnedView(definition) };
        const record = pins.get(name);
        if (!record) {
          pins.set(
            name,
            trust ? { server, tool, approved: { ...seen, approvedAt: now } } : pendingRecord(server, tool, seen, now),
          );
          changed = true;
          if (trust) allowed.push(name);
          else withheld.push(withheldAs(name, { state: 'unapproved' }));
          continue;
        }
        if (record.server !== server || record.tool !== tool) {
          Object.assign(record, { server, tool });
          changed = true;
        }
        if (record.approved?.fingerprint === fingerprint) {
          if (record.pending) {
            delete record.pending;
            changed = true;
          }
          allowed.push(name);
          continue;
        }
        if (record.pending?.fingerprint !== fingerprint) {
          record.pending = { ...seen, seenAt: now };
          changed = true;
        }
        withheld.push(
          withheldAs(
            name,
            record.approved
              ? {
                  state: 'changed',
                  approved: record.approved,
                  now: seen,
                  fields: changedFields(record.approved.definition, definition),
                }
              : { state: 'unapproved' },
          ),
        );
      }
      return { changed, value: { allowed, withheld } };
    });
  }

  /**
   * Approves the pending definition of each of `names` (`'all'`: every pending one) and resolves
   * with the names approved. All or nothing: a name with no pending change rejects with
   * `INVALID_ARGUMENT` naming it and the pending ones, and approves none. `'all'` with nothing
   * pending resolves with `[]`. Rejects like {@link observe} for a broken file, a held lock or an
   * abort.
   */
  approve(names: readonly string[] | 'all', options: ChangeOptions = {}): Promise<string[]> {
    return this.change(options.signal, (pins, now) => {
      const waiting = [...pins].filter(([, r]) => r.pending).map(([name]) => name);
      const targets = names === 'all' ? waiting.sort() : [...new Set(names)];
      const unknown = targets.filter((name) => !pins.get(name)?.pending);
      if (unknown.length)
        throw new McpError(
          'INVALID_ARGUMENT',
          `nothing to approve for ${unknown.map((n) => `"${n}"`).join(', ')}: ${
            waiting.length ? `pending: ${waiting.sort().join(', ')}` : 'no tool is pending'
          }`,
        );
      for (const name of targets) {
        const record = pins.get(name)!;
        const { fingerprint, definition } = record.pending!;
        record.approved = { fingerprint, definition, approvedAt: now };
        delete record.pending;
      }
      return { changed: targets.length > 0, value: targets };
    });
  }

  /** Every pin, by name (copies, from memory). */
  list(): PinEntry[] {
    return [...this.pins]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, record]) => ({ name, ...structuredClone(record) }));
  }

  /** The pins waiting for approval, by name (copies, from memory). */
  pending(): PendingPin[] {
    return this.list().filter((entry): entry is PendingPin => entry.pending !== undefined);
  }

  /**
   * Calls `onChange` after another process (or store) changed the file and the pins in memory
   * were replaced by what it now holds: `mcpwire gateway approve` run beside a gateway. The
   * store's own writes call nothing. A file broken by the change leaves the pins as they were and
   * calls `onError` with the `ConfigError`. A change that this store's own {@link observe} or
   * {@link approve} read first is already in memory and is not reported again. Watches the file's
   * directory (made if missing), so a file replaced by a rename or removed is followed too. The
   * disposer stops watching; no callback runs after it.
   */
  watch(onChange: () => void, onError: (error: unknown) => void = () => undefined): Disposer {
    const directory = path.dirname(this.file);
    const base = path.basename(this.file);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    let disposed = false;
    let reading = false;
    let again = false;
    const reread = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          try {
            if ((await this.reload()) && !disposed) onChange();
          } catch (error) {
            if (!disposed) onError(error);
          }
        } while (again && !disposed);
      } finally {
        reading = false;
      }
    };
    const watcher = watchDirectory(directory, { persistent: false }, (_event, filename) => {
      // Some platforms give no file name: then any change in the directory may be ours.
      if (!disposed && (filename === null || filename === base)) void reread();
    });
    watcher.on('error', (error) => {
      if (!disposed) onError(error);
    });
    return () => {
      if (disposed) return;
      disposed = true;
      watcher.close();
    };
  }

  /** Re-reads the file; true when its text differs from what the store last read or wrote. */
  private reload(): Promise<boolean> {
    return this.serialise(async () => {
      const content = await readPinFile(this.file);
      if (content.text === this.text) return false;
      this.pins = content.pins;
      this.text = content.text;
      return true;
    });
  }

  /**
   * Runs `apply` on the pins as the file holds them now (re-read), writes them when it reports a
   * change, and makes them the store's. `apply` may throw to change nothing.
   */
  private change<T>(
    signal: AbortSignal | undefined,
    apply: (pins: Pins, now: string) => { changed: boolean; value: T },
  ): Promise<T> {
    return this.serialise(() =>
      withPinFileLock(
        this.file,
        async () => {
          const content = await readPinFile(this.file);
          const { changed, value } = apply(content.pins, new Date().toISOString());
          let text = content.text;
          if (changed) {
            text = pinsText(content.pins);
            await writePinFile(this.file, text);
          }
          this.pins = content.pins;
          this.text = text;
          return value;
        },
        signal,
      ),
    );
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function pendingRecord(
  server: string,
  tool: string,
  seen: { fingerprint: string; definition: Tool },
  now: string,
): PinRecord {
  return { server, tool, pending: { ...seen, seenAt: now } };
}

function withheldAs(name: string, verdict: PinVerdict & { state: 'unapproved' | 'changed' }): WithheldTool {
  return { name, state: verdict.state, reason: pinRefusal(name, verdict)! };
}
