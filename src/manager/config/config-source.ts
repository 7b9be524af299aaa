/**
 * Where a manager's configuration comes from: the layered config files (`ManagerOptions.config`,
 * read on first need), a host's own `load` function (read only on reload), or nothing (the
 * servers the host adds). Keeps what the last read of the files reported.
 */
import type { McpError } from '../../protocol/errors.js';
import type { PermissionBlock } from '../permissions/permission-block.js';
import { ConfigLoader } from './load-config.js';
import type { ManagerOptions } from '../manager-types.js';
import type { ManagedServer } from '../servers/managed-server.js';

export class ConfigSource {
  private readonly loader: ConfigLoader | undefined;
  private readonly read: (() => Promise<ManagedServer[]>) | undefined;
  /** The first read, once started; settled at once when there is nothing to read on first need. */
  private initial: Promise<void> | undefined;
  /** What the last read of the files reported: broken files and entries (each names its file). */
  errors: McpError[] = [];
  /** Unknown keys and other warnings of the last read of the files. */
  warnings: string[] = [];

  /** `permissions` receives the `permissions` blocks of every read of the files. */
  constructor(options: Pick<ManagerOptions, 'config' | 'load'>, permissions: (blocks: PermissionBlock[]) => void) {
    if (options.config) {
      const loader = new ConfigLoader(options.config);
      this.loader = loader;
      this.read = async () => {
        const loaded = await loader.load();
        this.errors = loaded.errors;
        this.warnings = loaded.warnings;
        permissions(loaded.permissions);
        return loaded.servers;
      };
    } else {
      this.read = options.load;
      this.initial = Promise.resolve();
    }
  }

  /** The errors of the last read that left a server's entry out, by server name (the first of each). */
  leftOut(): Map<string, McpError> {
    const out = new Map<string, McpError>();
    for (const error of this.errors)
      if (error.server !== undefined && !out.has(error.server)) out.set(error.server, error);
    return out;
  }

  /** The config files read (empty without `config`), for watching. */
  files(): string[] {
    return this.loader?.files() ?? [];
  }

  /** Whether there is anything to read again (`config` or `load`). */
  get reloadable(): boolean {
    return this.read !== undefined;
  }

  /**
   * Reads the files once, on first need, and hands their servers to `add`; every call waits for
   * that same first read (rejects as it did).
   */
  ensureLoaded(add: (server: ManagedServer) => void): Promise<void> {
    this.initial ??= (async () => {
      for (const server of await this.read!()) add(server);
    })();
    return this.initial;
  }

  /** Reads again (see {@link reloadable}); a first read is then no longer needed. */
  async reload(): Promise<ManagedServer[]> {
    const servers = await this.read!();
    this.initial ??= Promise.resolve();
    return servers;
  }
}
