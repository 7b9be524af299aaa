/**
 * The exit codes of `mcpwire`, and which error maps to which. Scripts rely on these: they are
 * part of the command's contract and only ever grow.
 */
import { OAuthError } from '../auth/auth-error.js';
import { errorMessage, McpError } from '../protocol/errors.js';
import { UsageError } from './argv.js';

export const EXIT = {
  ok: 0,
  /** The command line was wrong (unknown option, missing operand, bad value). */
  usage: 1,
  /**
   * A config file or entry is broken, or the named server is not configured; or the command
   * needs a library that is not installed (`DEPENDENCY_MISSING`: an optional peer dependency,
   * the message names the `npm install` to run).
   */
  config: 2,
  /**
   * The server wants credentials (HTTP 401/403) this command cannot give: no stored login works
   * and none may be started here (off a terminal, `--stored-auth-only`), or `auth login` failed.
   */
  auth: 3,
  /** The server could not be reached or started, or broke the protocol while connecting. */
  unreachable: 4,
  /** The tool (or prompt, resource, completion) failed: `isError`, an unknown name, a server error. */
  tool: 5,
  /** A request or the connect timed out. */
  timeout: 6,
  /** The answer arrived but cannot be printed: nested more than 1000 levels deep (`RESULT_TOO_DEEP`). */
  unprintable: 7,
} as const;

/** The exit code of a command ended by a signal: 128 + the signal's number, as shells report a death by it. */
export const EXIT_BY_SIGNAL = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** The signals whose arrival ends a command with {@link EXIT_BY_SIGNAL}. */
export type EndingSignal = keyof typeof EXIT_BY_SIGNAL;

/** A failure the CLI found itself, with the exit code it deserves. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * `AUTH_REQUIRED` said in the CLI's words: `cause` is the error below, whose typed facts
 * (`status`, `challenge`, an OAuth `step`, …) the `--json` envelope keeps. Exit 3.
 */
export class AuthRefusedError extends CliError {
  constructor(message: string, cause: unknown) {
    super('AUTH_REQUIRED', message, EXIT.auth, { cause });
  }
}

/**
 * `AUTH_REQUIRED` from a server the user can log in to: the message ends with `loginCommand`
 * (`run: mcpwire auth login NAME`). Exit 3.
 */
export class LoginRequiredError extends AuthRefusedError {
  constructor(
    message: string,
    readonly loginCommand: string,
    cause: unknown,
  ) {
    super(message, cause);
  }
}

/**
 * The error for an answer of `server` to `method` that cannot be printed (`what`: `result of tool
 * "x"`; `why`: `it is nested more than 1000 levels deep`): `RESULT_TOO_DEEP`, exit 7. The server
 * answered and the session was fine; only showing the answer failed.
 */
export function unprintableError(server: string, method: string, what: string, why: string): CliError {
  return new CliError(
    'RESULT_TOO_DEEP',
    `server "${server}": ${method} ${what} cannot be printed: ${why}`,
    EXIT.unprintable,
  );
}

/** The exit code for an error thrown anywhere below the CLI. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof CliError) return error.exitCode;
  if (!(error instanceof McpError)) return EXIT.unreachable;
  switch (error.code) {
    case 'CONFIG_INVALID':
    case 'DEPENDENCY_MISSING':
      return EXIT.config;
    case 'AUTH_REQUIRED':
      return EXIT.auth;
    case 'TIMEOUT':
      return EXIT.timeout;
    case 'SERVER_ERROR':
    case 'CAPABILITY_MISSING':
    case 'OUTPUT_SCHEMA_MISMATCH':
    case 'INPUT_UNSUPPORTED':
    case 'INPUT_ROUNDS_EXCEEDED':
    case 'PERMISSION_DENIED':
      return EXIT.tool;
    case 'INVALID_ARGUMENT':
      return /not found|unknown tool/.test(error.message) ? EXIT.tool : EXIT.usage;
    case 'CANCELLED':
      return EXIT_BY_SIGNAL.SIGINT;
    default:
      return EXIT.unreachable;
  }
}

/**
 * The typed facts of `error` for `--json`. A failed login started by the server's 401/403 shows
 * that refusal's facts (`url`, `status`, `challenge`, …) as a plain 401 would, the login's `step`
 * and `oauthError` beside them, and all the login's own (its `url` too) under `oauth`.
 */
function factsOf(error: McpError): Record<string, unknown> {
  if (!(error instanceof OAuthError) || error.refusal === undefined) return error.toJSON();
  const { refusal: _refusal, code: _code, message: _message, server: _server, ...oauth } = error.toJSON();
  return {
    ...error.refusal.toJSON(),
    code: error.code,
    message: error.message,
    step: error.step,
    ...(error.oauthError !== undefined ? { oauthError: error.oauthError } : {}),
    oauth,
  };
}

/** The `error` member of the `--json` envelope. */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof McpError) return { ...factsOf(error), exitCode: exitCodeOf(error) };
  if (error instanceof AuthRefusedError) {
    const facts = error.cause instanceof McpError ? factsOf(error.cause) : {};
    return {
      ...facts,
      code: error.code,
      message: error.message,
      exitCode: error.exitCode,
      ...(error instanceof LoginRequiredError ? { loginCommand: error.loginCommand } : {}),
    };
  }
  if (error instanceof CliError) return { code: error.code, message: error.message, exitCode: error.exitCode };
  if (error instanceof UsageError) return { code: 'USAGE', message: error.message, exitCode: EXIT.usage };
  return { code: 'INTERNAL', message: errorMessage(error), exitCode: EXIT.unreachable };
}
