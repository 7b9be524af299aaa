/** One configured server as `config show` and `config get` print it, from its redacted copy. */
import { redactServer } from '../manager/config/redact.js';
import type { LoadedServer } from '../manager/config/load-config.js';

/** A loaded server as shown: redacted (see `redactServer`), with `trusted`. */
export type ShownServer = ReturnType<typeof redactServer> & { trusted: boolean };

/** The display copy of `server`; nothing in it is an expanded secret. */
export function shownServer(server: LoadedServer): ShownServer {
  return { ...redactServer(server), trusted: server.trusted };
}

/**
 * The lines for `server`: `NAME  (from SCOPE FILE; overrides …; needs approval)`, its definition
 * as indented JSON, then where each value that came from a variable or an env file came from.
 */
export function describeServer(server: ShownServer): string[] {
  const { name, provenance, trusted, origins, ...definition } = server as ShownServer & {
    origins?: Record<string, string>;
  };
  const from = provenance ? `${provenance.scope} ${provenance.file}` : 'inline';
  const over = (provenance as { overrides?: Array<{ file: string; scope: string }> } | undefined)?.overrides?.map(
    (o) => `${o.scope} ${o.file}`,
  );
  const lines = [
    `${name}  (from ${from}${over?.length ? `; overrides ${over.join(', ')}` : ''}${trusted ? '' : '; needs approval'})`,
    ...JSON.stringify(definition, null, 2)
      .split('\n')
      .map((l) => `  ${l}`),
  ];
  for (const [field, source] of Object.entries(origins ?? {})) lines.push(`  ${field} ← ${source}`);
  return lines;
}
