// The todo server's configuration: the environment (MCP_SERVER_NAME, MCP_SERVER_VERSION,
// DATABASE_URL, TODO_DB, MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE) under command-line flags (--db,
// --http, --name, --version, --auth-issuer, --auth-audience, --slow-ms).

export const USAGE = `usage: node examples/todo-server/server.mjs [--db FILE] [--http HOST:PORT] [--name NAME] [--version VERSION] [--slow-ms N]

  --db FILE          SQLite database file (default: $TODO_DB, else ./tasks.db); created when missing
  --http HOST:PORT   serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0: any free port)
  --name NAME        serverInfo.name (default: $MCP_SERVER_NAME, else todo-server)
  --version VERSION  serverInfo.version (default: $MCP_SERVER_VERSION, else 1.0.0)
  --auth-issuer URL  with --http: require OAuth bearer tokens (JWTs) from this authorization server
                     (its keys found through its metadata); serves Protected Resource Metadata
  --auth-audience URL  the audience tokens must name (default: the served URL, http://HOST:PORT/mcp)
  --slow-ms N        import_tasks pauses N ms between two tasks (default 0; for demos of progress and fail-over)

environment: MCP_SERVER_NAME, MCP_SERVER_VERSION, TODO_DB, DATABASE_URL (PostgreSQL: used instead of --db when set),
             MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE`;

/** A configuration mistake: the message names the flag or variable. */
export class ConfigProblem extends Error {
  name = 'ConfigProblem';
}

/**
 * @returns {{
 *   name: string,
 *   version: string,
 *   db: string,
 *   databaseUrl: string | undefined,
 *   http: { host: string, port: number } | undefined,
 *   auth: { issuer: string, audience: string | undefined } | undefined,
 *   slowMs: number,
 *   help: boolean,
 * }}
 */
export function readConfig(argv, env) {
  const config = {
    name: env.MCP_SERVER_NAME || 'todo-server',
    version: env.MCP_SERVER_VERSION || '1.0.0',
    db: env.TODO_DB || 'tasks.db',
    databaseUrl: env.DATABASE_URL || undefined,
    http: undefined,
    auth: undefined,
    slowMs: 0,
    help: false,
  };
  let issuer = env.MCP_AUTH_ISSUER || undefined;
  let audience = env.MCP_AUTH_AUDIENCE || undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') {
      config.help = true;
      continue;
    }
    const value = argv[i + 1];
    if (!['--db', '--http', '--name', '--version', '--auth-issuer', '--auth-audience', '--slow-ms'].includes(flag))
      throw new ConfigProblem(`unknown argument ${JSON.stringify(flag)}`);
    if (value === undefined || value.startsWith('--')) throw new ConfigProblem(`${flag} needs a value`);
    i++;
    if (flag === '--db') config.db = value;
    else if (flag === '--name') config.name = value;
    else if (flag === '--version') config.version = value;
    else if (flag === '--auth-issuer') issuer = value;
    else if (flag === '--auth-audience') audience = value;
    else if (flag === '--slow-ms') config.slowMs = parseSlowMs(value);
    else config.http = parseListen(value);
  }
  if (audience !== undefined && issuer === undefined) throw new ConfigProblem('--auth-audience needs --auth-issuer');
  if (issuer !== undefined) {
    if (!config.http) throw new ConfigProblem('--auth-issuer needs --http (stdio takes no bearer tokens)');
    config.auth = {
      issuer: absoluteUrl(issuer, '--auth-issuer'),
      audience: audience === undefined ? undefined : absoluteUrl(audience, '--auth-audience'),
    };
  }
  return config;
}

function absoluteUrl(value, flag) {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return value;
  } catch {
    // reported below
  }
  throw new ConfigProblem(`${flag} needs an http(s) URL, got ${JSON.stringify(value)}`);
}

function parseSlowMs(value) {
  if (!/^\d{1,7}$/.test(value))
    throw new ConfigProblem(`--slow-ms needs a whole number of milliseconds (0–9999999), got ${JSON.stringify(value)}`);
  return Number(value);
}

function parseListen(value) {
  const match = /^(.+):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535)
    throw new ConfigProblem(`--http needs HOST:PORT (e.g. 127.0.0.1:8080), got ${JSON.stringify(value)}`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}
