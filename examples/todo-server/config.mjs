// The todo server's configuration: the environment (MCP_SERVER_NAME, MCP_SERVER_VERSION,
// DATABASE_URL, TODO_DB, MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE, REDIS_URL, MCP_STATE_SECRET,
// MCP_NODE_ID, MCP_STATE_PREFIX) under command-line flags (--db, --http, --name, --version,
// --auth-issuer, --auth-audience, --slow-ms, --state, --lease-ms).

export const USAGE = `usage: node examples/todo-server/server.mjs [--db FILE] [--http HOST:PORT] [--name NAME] [--version VERSION] [--slow-ms N]
                                          [--state memory|postgres|redis] [--lease-ms N]

  --db FILE          SQLite database file (default: $TODO_DB, else ./tasks.db); created when missing
  --http HOST:PORT   serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0: any free port)
  --name NAME        serverInfo.name (default: $MCP_SERVER_NAME, else todo-server)
  --version VERSION  serverInfo.version (default: $MCP_SERVER_VERSION, else 1.0.0)
  --auth-issuer URL  with --http: require OAuth bearer tokens (JWTs) from this authorization server
                     (its keys found through its metadata); serves Protected Resource Metadata
  --auth-audience URL  the audience tokens must name (default: the served URL, http://HOST:PORT/mcp)
  --slow-ms N        import_tasks pauses N ms between two tasks (default 0; for demos of progress and fail-over)
  --state STORE      with --http: where the server kit keeps sessions, SSE events, tasks and its change bus:
                     memory (default: this process only), postgres (DATABASE_URL) or redis (REDIS_URL), shared by
                     every node started alike; a shared store needs MCP_STATE_SECRET
  --lease-ms N       with --http: how long a dead node's tasks and streams may hold before they fail (default 30000)

environment: MCP_SERVER_NAME, MCP_SERVER_VERSION, TODO_DB, DATABASE_URL (PostgreSQL: used instead of --db when set),
             MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE, REDIS_URL, MCP_STATE_SECRET (16+ characters, the same on every node),
             MCP_NODE_ID (this node's id, default random), MCP_STATE_PREFIX (tables' or keys' prefix of the shared state)`;

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
 *   state: {
 *     store: 'memory' | 'postgres' | 'redis',
 *     url: string | undefined,
 *     secret: string | undefined,
 *     nodeId: string | undefined,
 *     prefix: string | undefined,
 *     leaseMs: number | undefined,
 *   },
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
    state: {
      store: 'memory',
      url: undefined,
      secret: env.MCP_STATE_SECRET || undefined,
      nodeId: env.MCP_NODE_ID || undefined,
      prefix: env.MCP_STATE_PREFIX || undefined,
      leaseMs: undefined,
    },
    help: false,
  };
  let store;
  let issuer = env.MCP_AUTH_ISSUER || undefined;
  let audience = env.MCP_AUTH_AUDIENCE || undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') {
      config.help = true;
      continue;
    }
    const value = argv[i + 1];
    if (!FLAGS.includes(flag)) throw new ConfigProblem(`unknown argument ${JSON.stringify(flag)}`);
    if (value === undefined || value.startsWith('--')) throw new ConfigProblem(`${flag} needs a value`);
    i++;
    if (flag === '--db') config.db = value;
    else if (flag === '--name') config.name = value;
    else if (flag === '--version') config.version = value;
    else if (flag === '--auth-issuer') issuer = value;
    else if (flag === '--auth-audience') audience = value;
    else if (flag === '--slow-ms') config.slowMs = parseSlowMs(value);
    else if (flag === '--state') store = parseStore(value);
    else if (flag === '--lease-ms') config.state.leaseMs = parseLeaseMs(value);
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
  config.state = readState(config, store, env);
  return config;
}

const FLAGS = [
  '--db',
  '--http',
  '--name',
  '--version',
  '--auth-issuer',
  '--auth-audience',
  '--slow-ms',
  '--state',
  '--lease-ms',
];

/** Where each shared store's address comes from. */
const STORE_URL = { postgres: 'DATABASE_URL', redis: 'REDIS_URL' };

function readState(config, store, env) {
  const state = config.state;
  if ((store !== undefined || state.leaseMs !== undefined) && !config.http)
    throw new ConfigProblem(
      `${store !== undefined ? '--state' : '--lease-ms'} needs --http (over stdio one process serves one client)`,
    );
  if (store === undefined || store === 'memory') return { ...state, store: 'memory' };
  const variable = STORE_URL[store];
  const url = env[variable] || undefined;
  if (url === undefined) throw new ConfigProblem(`--state ${store} needs ${variable} (the store's URL)`);
  if (state.secret === undefined)
    throw new ConfigProblem(`--state ${store} needs MCP_STATE_SECRET (16+ characters, the same on every node)`);
  if (state.secret.length < 16)
    throw new ConfigProblem(`MCP_STATE_SECRET needs 16+ characters (it has ${state.secret.length})`);
  if (state.nodeId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(state.nodeId))
    throw new ConfigProblem(`MCP_NODE_ID needs 1–64 letters, digits, _ or -, got ${JSON.stringify(state.nodeId)}`);
  if (state.prefix !== undefined && !/^[a-z_][a-z0-9_]{0,30}$/.test(state.prefix))
    throw new ConfigProblem(
      `MCP_STATE_PREFIX needs 1–31 lower-case letters, digits or _ (not first a digit), got ${JSON.stringify(state.prefix)}`,
    );
  return { ...state, store, url };
}

function parseStore(value) {
  if (!['memory', 'postgres', 'redis'].includes(value))
    throw new ConfigProblem(`--state needs memory, postgres or redis, got ${JSON.stringify(value)}`);
  return value;
}

function parseLeaseMs(value) {
  if (!/^\d{1,7}$/.test(value) || Number(value) < 500)
    throw new ConfigProblem(
      `--lease-ms needs a whole number of milliseconds (500–9999999), got ${JSON.stringify(value)}`,
    );
  return Number(value);
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
