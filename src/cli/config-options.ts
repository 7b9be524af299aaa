/**
 * The config layer as the command line describes it: `--cwd`, `--config FILE` (repeatable),
 * `$HOME` and the environment.
 */
import path from 'node:path';
import { ConfigLoader, type ConfigOptions } from '../manager/config/load-config.js';
import { listOption, stringOption, type ParsedArgs } from './argv.js';
import type { CliIO } from './io.js';

/** The config loader the shared options describe (user file, project files, `--config` files). */
export function configLoader(args: ParsedArgs, io: CliIO): ConfigLoader {
  return new ConfigLoader(configOptions(args, io));
}

/** The config layer's options for this command line (`--cwd`, `--config`, `$HOME`, the environment). */
export function configOptions(args: ParsedArgs, io: CliIO): ConfigOptions {
  const cwd = path.resolve(io.cwd, stringOption(args, 'cwd') ?? '.');
  return {
    cwd,
    env: io.env,
    configPaths: listOption(args, 'config').map((file) => path.resolve(io.cwd, file)),
    ...(io.env.HOME ? { homeDir: io.env.HOME } : {}),
  };
}
