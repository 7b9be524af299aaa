/**
 * Making a configuration the running one: {@link reconcileServers} compares each server's
 * effective definition with what runs (by fingerprint) and touches only what changed;
 * {@link reloadOnChange} does that again whenever a watched config file changes, one reload at
 * a time, and reports each outcome.
 */
import { McpError } from '../../protocol/errors.js';
import { configFingerprint } from '../config/fingerprint.js';
import { watchConfigFiles, type ConfigWatch, type WatchOptions } from '../config/config-watcher.js';
import type { ManagerEvents, ReconcileResult } from '../manager-types.js';
import type { ManagedServer } from './managed-server.js';
import type { ServerSlot } from './server-slot.js';

/** What a reconcile needs of the manager. */
export interface ReconcileTarget {
  /** The configured servers, by name, in configuration order. */
  readonly slots: ReadonlyMap<string, ServerSlot>;
  /** Disconnects and forgets a server (its tools leave the catalogue). */
  removeServer(name: string): Promise<void>;
  /** Puts `server` in place of the slot of its name (disconnecting the old one), not connected. */
  replaceServer(server: ManagedServer): Promise<void>;
  /** Connects a configured server; rejects with its connect error. */
  connect(name: string): Promise<unknown>;
}

/**
 * Makes `servers` the configuration of `target`: removed servers are disconnected; a server whose
 * definition changed is replaced and connected again if it was live or should auto-connect; an
 * unchanged one keeps its connection (only its provenance is updated); added ones connect when
 * enabled and auto-connecting. Never rejects: connect failures are in the result.
 */
export async function reconcileServers(
  target: ReconcileTarget,
  servers: readonly ManagedServer[],
): Promise<ReconcileResult> {
  const next = new Map(servers.map((server) => [server.name, server]));
  const result: ReconcileResult = { added: [], removed: [], changed: [], unchanged: [], failed: [] };
  for (const name of [...target.slots.keys()]) {
    if (!next.has(name)) {
      result.removed.push(name);
      await target.removeServer(name);
    }
  }
  const starts: Array<Promise<void>> = [];
  for (const server of servers) {
    const slot = target.slots.get(server.name);
    if (slot && configFingerprint(slot.spec) === configFingerprint(server)) {
      result.unchanged.push(server.name);
      slot.spec.provenance = server.provenance; // where it is defined may move without a restart
      continue;
    }
    const status = slot?.snapshot().status;
    const wasLive = status === 'connected' || status === 'connecting';
    (slot ? result.changed : result.added).push(server.name);
    await target.replaceServer(server);
    if (server.enabled !== false && (wasLive || server.autoConnect !== false)) {
      starts.push(
        target.connect(server.name).then(
          () => undefined,
          (error: unknown) =>
            void result.failed.push({
              server: server.name,
              error:
                error instanceof McpError ? error : new McpError('TRANSPORT', String(error), { server: server.name }),
            }),
        ),
      );
    }
  }
  await Promise.all(starts);
  return result;
}

/** What {@link reloadOnChange} needs of the manager. */
export interface ReloadTarget {
  /** Reads the configuration again and reconciles to it; rejects when it cannot read it. */
  reload(): Promise<ReconcileResult>;
  /** The problems of the last config load (each names its file). */
  configErrors(): readonly McpError[];
  /** Reports each reload's outcome. */
  report: ManagerEvents['reload'];
}

/**
 * Watches `files` (debounced, surviving atomic replaces) and reloads after each change, one
 * reload after another: a save during a reload gets its own pass afterwards. Each outcome is
 * reported: `result` when applied, `error` as well when a config file or entry is broken, only
 * `error` when the reload failed. Returns the watch; closing it stops watching.
 */
export function reloadOnChange(files: readonly string[], options: WatchOptions, target: ReloadTarget): ConfigWatch {
  let running: Promise<unknown> = Promise.resolve();
  return watchConfigFiles(
    files,
    (changed) => {
      running = running.then(async () => {
        try {
          const result = await target.reload();
          const error = configProblem(target.configErrors());
          target.report(error ? { files: changed, result, error } : { files: changed, result });
        } catch (error) {
          target.report({
            files: changed,
            error: error instanceof McpError ? error : new McpError('CONFIG_INVALID', String(error)),
          });
        }
      });
    },
    options,
  );
}

/** One error for the problems of a config load (each names its file), or undefined when there were none. */
function configProblem(errors: readonly McpError[]): McpError | undefined {
  if (errors.length <= 1) return errors[0];
  return new McpError(
    'CONFIG_INVALID',
    `${errors.length} config problems: ${errors.map((e) => e.message).join('; ')}`,
    { cause: errors[0] },
  );
}
