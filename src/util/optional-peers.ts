/**
 * The optional peer dependencies the `mcpwire` command loads on first use: libraries a library
 * user never needs, so `npm install mcpwire` does not install them. Each is named with the range
 * package.json's `peerDependencies` gives it (a test keeps the two equal) and the commands that
 * need it; a command that finds it absent says which `npm install` to run.
 */
export const OPTIONAL_PEERS = {
  /** The TypeScript generator (it brings Prettier and a `$ref` resolver: ~20 MB). */
  'json-schema-to-typescript': { range: '16.0.0', neededBy: 'mcpwire emit-ts' },
  /** Line diffs: the `--dry-run` diff of an edit and a YAML edit's changed lines. */
  diff: { range: '^8.0.4', neededBy: 'mcpwire config add/remove --dry-run (and an edit of an existing YAML file)' },
  /** The TOML editor (Codex's `config.toml`). */
  '@decimalturn/toml-patch': { range: '^3.3.0', neededBy: 'mcpwire config add/remove on a TOML file' },
} as const;

/** The name of an optional peer dependency. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** The command that installs `name` in the range mcpwire wants (`npm install diff@^8.0.4`). */
export function installCommand(name: OptionalPeer): string {
  return `npm install ${name}@${OPTIONAL_PEERS[name].range}`;
}
