/**
 * `--help` texts, one per command. Every command's examples sit under an `Example:` or
 * `Examples:` line, one shell command per line, and run as written wherever the reference
 * server @modelcontextprotocol/server-everything is installed (as in this repository, whose dev
 * dependencies include it: no network needed) with, for `--server everything`, a configured
 * server of that name, and for `--url`, the reference server's HTTP mode running. A test runs
 * them all offline. Lines stay within 80 columns.
 */
import { installCommand } from '../util/optional-peers.js';

/** The reference server every example talks to. */
const EVERYTHING = 'npx -y @modelcontextprotocol/server-everything';

const TARGET = `Server (one of):
  -- COMMAND [ARGS...]     a stdio server: all after -- is its command line
  --url URL                a remote server (Streamable HTTP, either era;
                           HTTP+SSE found by fallback)
    --header 'K: V'        a request header (repeatable); never printed
    --transport http|sse   skip detection
  --server NAME            a server from your config (~/.mcpwire/config.json,
                           .mcp.json, ...), else another host's: HOST:NAME
                           (cursor:fs, codex:docs; see servers --all) or a
                           NAME only one host has
    --config FILE          add a config file (repeatable)
    --trust-project        start project-file servers without approval (else:
                           asked once on a terminal, refused elsewhere)
Connection:
  -e KEY=VALUE             environment for a stdio server (repeatable)
  --cwd DIR                working directory of a stdio server (and of project
                           config lookup)
  --era legacy|modern|auto, --protocol-version V, --timeout MS,
  --root DIR (declare a root)
  --stored-auth-only       OAuth: stored logins only (for CI; a stored refresh
                           token still renews one): never a login, exit 3
                           naming the login command when one is missing
Output:
  --json                   one JSON envelope on stdout: {"ok":true,"result":...}
                           or {"ok":false,"error":{...}}
  --trace                  print every JSON-RPC frame on stderr (redacted)
  --trace-file FILE.jsonl  record every frame, one JSON object per line
  --otlp-endpoint URL      send each request's span live to an OTLP/HTTP
                           receiver (JSON; a URL without a path gets /v1/traces)
    --otlp-header 'K: V'   a header for it, e.g. an API key (repeatable)
  --no-color`;

const EXITS = `Exit codes: 0 ok, 1 usage, 2 config error, project server not approved or
an optional library not installed, 3 auth required, 4 server unreachable or
failed to start, 5 tool error (isError, unknown tool, server error), 6 timeout,
7 result too deeply nested to print, 129/130/143 terminal closed (SIGHUP) or
interrupted (SIGINT, SIGTERM).`;

export const HELP: Record<string, string> = {
  main: `mcpwire — see, call and debug any MCP server from a terminal

Usage: mcpwire COMMAND [options] [-- SERVER COMMAND...]

Talk to a server:
  info        era, protocol version, server info, capabilities, instructions
  tools       list tools               call TOOL    call a tool
  resources   list resources           templates    list resource templates
  read URI    read a resource          prompts      list prompts
  prompt NAME render a prompt          complete     argument completions
  ping        liveness and round-trip time
  skills      list skills              skills read URI  read one, verified
  app TOOL    preview a tool's MCP App in your browser, against the server
Your config:
  servers     configured servers, status, provenance (--all: other apps' too)
  auth login|status|logout   OAuth logins of hosted (URL) servers
  config show|check|import|add|remove|get
  registry search|show|add   find servers in the MCP Registry and install them
  repl        interactive /mcp commands over every configured server
  doctor      what each server needs to work, checked step by step
  gateway     serve every configured server as one MCP endpoint
Traffic:
  proxy       record the traffic between your host and a server
  trace show|check|export FILE.jsonl
  trace report FILE.jsonl     the trace as one HTML page (timeline, latency)
  replay FILE.jsonl           serve a recorded session back (a test fixture)
Your shell:
  completion bash|zsh|fish    TAB completion: commands, options, servers, tools
Code:
  emit-ts     TypeScript types and a typed client for a server's tools

Options:
  -h, --help      this overview; 'mcpwire COMMAND --help': a command's options
  -V, --version   print the version of mcpwire

Installed in a project (npm install -D mcpwire) rather than globally,
the command is npx mcpwire: every example in these texts runs so.

Examples (the reference server; npx uses a local install, else downloads it):
  mcpwire tools -- ${EVERYTHING}
  mcpwire call get-sum --arg a=2 --arg b=3 \\
    -- ${EVERYTHING}
  mcpwire tools --server everything --trace   # "everything" in your .mcp.json
  mcpwire info --url http://127.0.0.1:3001/mcp \\
    --header "Authorization: Bearer $TOKEN"

The --url example needs the reference server's HTTP mode running:
  npx @modelcontextprotocol/server-everything streamableHttp   (port 3001)

${EXITS}`,
  info: `Usage: mcpwire info [server]

Shows the era, protocol version, server info, capabilities and instructions.

${TARGET}

Examples:
  mcpwire info -- ${EVERYTHING}
  mcpwire info --url http://127.0.0.1:3001/mcp --json`,
  tools: `Usage: mcpwire tools [server]

Lists every tool (all pages): name, arguments (* = required), description.
A tool only the server's MCP App may call (_meta.ui.visibility without
"model") is tagged [app]: the manager never offers it to a model.
Off a terminal the table fits $COLUMNS (default 80); --json has every field.

${TARGET}

Examples:
  mcpwire tools -- ${EVERYTHING}
  mcpwire tools --server everything --json`,
  call: `Usage: mcpwire call TOOL [--arg k=v ...] [--args-json JSON] [server]

Calls a tool. Each --arg k=v takes the type the tool's inputSchema gives k: a
string as written (id=1 is "1"), a number, integer, boolean or null parsed, an
array or object as JSON, an enum one of its values; a value that does not fit
is a usage error (exit 1) naming k. An untyped value is read as JSON when it is
JSON (n=3 a number). --arg wins over --args-json. TOOL may also be the
manager's mcp__SERVER__TOOL: without --server, SERVER is your config's. On a
terminal, progress shows as a live line and the server's questions (elicitation)
are asked interactively; otherwise they are declined. --max-chars N caps the
printed text (--json prints the whole result).

${TARGET}

Examples:
  mcpwire call get-sum --arg a=2 --arg b=3 \\
    -- ${EVERYTHING}
  mcpwire call echo --args-json '{"message":"hi"}' --server everything --json
  mcpwire call mcp__everything__echo --arg message=1

${EXITS}`,
  resources: `Usage: mcpwire resources [server]

Lists resources (all pages).

${TARGET}

Example:
  mcpwire resources -- ${EVERYTHING}`,
  templates: `Usage: mcpwire templates [server]

Lists resource templates.

${TARGET}

Example:
  mcpwire templates --server everything`,
  read: `Usage: mcpwire read URI [server]

Reads a resource and prints its text (blobs are summarised; --json has them).

${TARGET}

Example:
  mcpwire read demo://resource/static/document/features.md --server everything`,
  skills: `Usage: mcpwire skills [read URI] [server]

Lists the skills a server publishes (SEP-2640, io.modelcontextprotocol/skills),
all pages, reading none of their files. \`skills read URI\` prints one file of a
listed skill once its size and sha256 digest match the skill's entry (and a
SKILL.md's frontmatter); a file that does not match, or that no entry lists,
fails with the reason and none of its bytes.

${TARGET}

Example:
  mcpwire skills -- ${EVERYTHING}`,
  prompts: `Usage: mcpwire prompts [server]

Lists prompts with their arguments (* = required).

${TARGET}

Example:
  mcpwire prompts -- ${EVERYTHING}`,
  prompt: `Usage: mcpwire prompt PROMPT [--arg k=v ...] [server]

Renders a prompt.

${TARGET}

Example:
  mcpwire prompt args-prompt --arg city=Paris \\
    -- ${EVERYTHING}`,
  complete: `Usage: mcpwire complete (--prompt NAME | --resource URI_TEMPLATE)
                        --argument NAME [--value PREFIX] [--context k=v ...]
                        [server]

Asks the server to complete an argument value.

${TARGET}

Examples:
  mcpwire complete --prompt completable-prompt --argument department --value E \\
    --server everything
  mcpwire complete --prompt completable-prompt --argument name \\
    --context department=Engineering --server everything`,
  ping: `Usage: mcpwire ping [server]

Checks the server answers and prints the round-trip time (2026-07-28 has no
ping: server/discover is used).

${TARGET}

Example:
  mcpwire ping -- ${EVERYTHING}`,
  servers: `Usage: mcpwire servers [--all] [--no-connect] [--trust-project]
                       [--config FILE ...] [--cwd DIR]

The effective servers of your config files (user ~/.mcpwire/config.json, project
.mcp.json, --config files), with their status, tool count and where each is
defined. Servers are connected in parallel to show their status; --no-connect
only lists. Servers defined by project files run only when approved: stored
approvals, a question on a terminal, or --trust-project. Exits 2 when a config
file has an error (after listing what loaded). --stored-auth-only (CI): exits 3
after listing when a server needs a login it does not have, naming each.

--all also lists, without starting them, the servers other hosts have
configured (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex,
Gemini CLI, Goose, Zed, OpenCode, Continue, Cline, Roo Code) as HOST:NAME, with
the host, scope and file, and why one cannot be used (ready, disabled,
needs-env, invalid, unusable); a host file that does not parse is named with
its line and column. Any of them works with --server HOST:NAME.

Examples:
  mcpwire servers
  mcpwire servers --no-connect --json
  mcpwire servers --all --no-connect
  mcpwire servers --stored-auth-only`,
  config: `Usage:
  mcpwire config show [--server NAME]   effective config, secrets redacted, with
                                       the file each server came from
  mcpwire config check                 validate every file; exit 2 on errors
  mcpwire config import --from HOST [--write FILE] [--force] [--project DIR]
                                       print (or write) an .mcp.json with that
                                       host's servers in mcpwire's shape; HOST:
                                       claude-desktop, claude-code, cursor,
                                       vscode, windsurf, codex, gemini, goose,
                                       zed, opencode, continue, cline, roo-code
  mcpwire config add NAME (--url URL [--header "K: V"]... | -- COMMAND ARGS...)
                     [--env K=V]... [--scope user|project] [--to HOST]
                     [--transport http|sse] [--env-ref] [--dry-run] [--force]
                     [--verbatim]
                                       add a server to your config (user
                                       ~/.mcpwire/config.json, project
                                       .mcp.json) or, with --to HOST, to that
                                       host's file in its own shape; exit 1
                                       if NAME exists (--force replaces it)
  mcpwire config add NAME --from-server-json FILE|- [--input K=V]... [--yes]
                                       the same from a registry server.json
                                       (FILE, or - for stdin): see registry
                                       --help for what it writes and asks
  mcpwire config remove NAME [--scope user|project] [--to HOST] [--dry-run]
                                       take it out; exit 2 when no file has it
  mcpwire config get NAME              one server as loaded: the file it came
                                       from, the files it overrides, secrets ***
  (get and remove take HOST:NAME too: a host's server, as --server names it)

Editing keeps the file's comments, key order and indentation; each write is
atomic and the previous version is kept as FILE.bak; a file that does not
parse is refused (exit 2, FILE:LINE:COLUMN) and left alone. --dry-run prints
the unified diff and writes nothing. Values of --env and --header are never
printed (***); --env-ref writes them as variable references in the host's
syntax (\${K}, \${env:K}, {env:K}, Codex env_vars, ...): set K where the host
runs. --to continue writes ~/.continue/config.yaml only.

All after -- is the server's command line: config add's own options go before
it. One of them after -- (config add x -- cmd --to cursor) is refused, exit 1,
and nothing is written; --verbatim keeps them as the server's arguments, for a
server that really takes them.

Common: --config FILE (repeatable), --cwd DIR, --json. show and check exit 2
when a config file has an error.

Examples:
  mcpwire config check
  mcpwire config show --server everything
  mcpwire config import --from claude-desktop --write .mcp.json
  mcpwire config add memory -- npx -y @modelcontextprotocol/server-memory
  mcpwire config add gh --url https://api.githubcopilot.com/mcp/ \\
    --header "Authorization: Bearer $TOKEN" --env-ref --to vscode --dry-run
  mcpwire config add memory --to codex \\
    -- npx -y @modelcontextprotocol/server-memory
  mcpwire config get memory
  mcpwire config remove memory --to codex --dry-run
  mcpwire config remove memory`,
  auth: `Usage:
  mcpwire auth login NAME | --url URL   log in in the browser and keep the login
      --no-browser                     open no browser: print the URL and wait
                                       for the callback (--json: one line
                                       {"authorizationUrl","redirectUri"} first)
      --callback-port N                the receiver's port, fixed (in use: an
                                       error naming it); for ssh -L N:...:N
      --timeout MS                     how long to wait (default 300000);
                                       Ctrl-C abandons the login
  mcpwire auth status [NAME | --url URL] [--json]
                                       logged in or not, expiry, scopes, the
                                       authorization server (never a token)
  mcpwire auth logout NAME | --url URL  remove the stored login

Hosted servers use the MCP OAuth flow. login opens your browser ($BROWSER, else
the system's opener) and always prints the URL too, for a remote terminal;
the login is kept in ~/.mcpwire/oauth (--store DIR to use another directory)
and renews itself. Any command that reaches a server that wants a login exits 3
and names the login command; on a terminal it offers to log in and goes on.
A server's "oauth" block in the config sets a client id, a "\${VAR}" secret,
scopes, a callback port, a grant; "oauth": false never logs in.

Headless (a remote shell, a script): mcpwire auth login NAME --no-browser
--json prints the URL as JSON at once; open it in any browser that reaches the
callback port (ssh -L 8976:127.0.0.1:8976 with --callback-port 8976), and the
command stores the login. CI: every command takes --stored-auth-only (no
login, no browser; exit 3 when a login is missing). Processes sharing the store
refresh a login once: the first renews it, the others take its tokens.

Common: --config FILE (repeatable), --cwd DIR, --store DIR, --json.

Examples:
  mcpwire auth status
  mcpwire auth status --json
  mcpwire auth logout --url http://127.0.0.1:3001/mcp
  mcpwire tools --server everything --stored-auth-only`,
  repl: `Usage: mcpwire repl [--config FILE ...] [--trust-project]

An interactive prompt over every configured server: /mcp, /mcp servers,
/mcp tools [server], /mcp resources, /mcp prompts,
/mcp connect|disconnect|reconnect NAME, /mcp reload,
call mcp__server__tool {json} | k=v ..., help, exit.
Off a terminal it reads one command per line.

Example:
  printf '/mcp tools everything\\ncall mcp__everything__echo message=hi\\n' \\
    | mcpwire repl`,
  proxy: `Usage:
  mcpwire proxy [--trace-file FILE.jsonl] [--trace] -- SERVER COMMAND...
  mcpwire proxy --url URL [--listen 127.0.0.1:PORT] [--header 'K: V']
                [--trace-file FILE.jsonl]

Stands in for a server in your host's config (Claude Desktop, Cursor, your own
agent) and records the traffic. stdio: bytes are forwarded unchanged both ways,
stderr passes through, signals are forwarded, and the proxy exits as the server
did. HTTP: a reverse proxy on 127.0.0.1; point the host at the printed URL.

Either form also takes:
  --otlp-endpoint URL      send each request's span live to an OTLP/HTTP
                           receiver (JSON; a URL without a path gets /v1/traces)
    --otlp-header 'K: V'   a header for it, e.g. an API key (repeatable)

In a host's config (.mcp.json of a project with mcpwire installed; with a
global install, "command": "mcpwire" and the args from "proxy" on):
  { "mcpServers": { "everything": { "command": "npx", "args": ["mcpwire",
      "proxy", "--trace-file", "/tmp/everything.jsonl", "--", "npx", "-y",
      "@modelcontextprotocol/server-everything"] } } }

Example (a host that sends nothing: the server sees end of input and exits):
  mcpwire proxy --trace-file everything.jsonl \\
    -- ${EVERYTHING} < /dev/null`,
  doctor: `Usage: mcpwire doctor [NAME] [--json] [--timeout MS] [--store DIR]
       mcpwire doctor --url URL | -- COMMAND [ARGS...]

Checks what each configured server (or the one named) needs to work, one line
per check with ok / warn / fail / skip and, when it is not ok, a fix:
  stdio: definition, command (on PATH or a file), start (answers initialize
         in time; its stderr when it exits), revision, tools, schemas
  URL:   definition, dns, tcp, tls (certificate, expiry), http (2026-07-28,
         legacy Streamable HTTP or HTTP+SSE), oauth (resource and
         authorization server metadata), login (the stored one, its expiry),
         revision, tools, schemas (tool schemas hosts or models refuse)
Each check is bounded by --timeout (default 30000 ms). Only stored logins are
used (no browser); secrets are never printed. --json: {servers:[{server,
transport, target, verdict, checks:[{id, verdict, detail, fix, kind, ms}]}]}.
Exits 0 when nothing failed (warnings allowed), else the first failure's code:
2 config, 3 auth, 4 unreachable or not starting, 5 tool definitions,
6 timeout.

Examples:
  mcpwire doctor
  mcpwire doctor everything --json
  mcpwire doctor -- ${EVERYTHING}`,
  replay: `Usage: mcpwire replay FILE.jsonl [--http HOST:PORT] [--loose] [--session N]

Serves the server side of a recorded session (a trace of mcpwire proxy or
--trace-file) over stdio, or over Streamable HTTP at --http (the URL is printed
on stdout; Ctrl-C stops it): the recording becomes a fixture for your client.

Strict by default: each request must be the next recorded one (same method,
same params; _meta, ids, and initialize's client info are not compared). A
request that does not match gets JSON-RPC error -32090 naming the expected
request and what came (also on stderr). --loose: any order. What the server
sent while a request ran (progress, elicitation, logs) comes in its place.
--session N picks one session of a file that holds several.
Exits 5 when a request did not match or (strict) a recorded one never came.

Examples:
  mcpwire tools --trace-file tools.jsonl \\
    -- ${EVERYTHING}
  mcpwire tools -- mcpwire replay tools.jsonl
  mcpwire tools -- mcpwire replay tools.jsonl --loose`,
  registry: `Usage:
  mcpwire registry search TEXT [--limit N] [--cursor C] [--json]
                                       servers whose name contains TEXT
  mcpwire registry show NAME [--version V] [--json]
                                       one server: packages, remotes, inputs
  mcpwire registry add NAME [--version V] [--package npm|pypi|oci|remote]
                     [--to HOST] [--scope user|project] [--input K=V]...
                     [--dry-run] [--yes] [--force]
                                       install it: write the entry that runs
                                       it to your config (or HOST's file)
  All take --registry URL (default https://registry.modelcontextprotocol.io,
  or $MCPWIRE_REGISTRY) and --timeout MS.

add shows the full command line first (secrets ***): npm runs as npx -y
ID@VERSION, pypi as uvx ID==VERSION, oci as docker run IMAGE:VERSION (with -i,
the container removed on exit), a remote as its URL. Each argument is one argv
item, never a shell line, and the publisher's text is kept literal (a \${VAR}
in it is not expanded). Secret inputs are written as variable references
(\${NAME}): set NAME where the host runs. Required inputs: --input K=V, asked
on a terminal, else exit 2. On a terminal add asks before writing; elsewhere
it writes only with --yes (exit 1 otherwise). A deleted server, mcpb and nuget
packages, and an identifier that starts with - are refused; a fileSha256 is
checked before anything is written.

For example (these need the network):
  mcpwire registry search filesystem
  mcpwire registry show io.github.modelcontextprotocol/filesystem
  mcpwire registry add io.example/weather --to cursor --input units=metric

Examples (a server.json of your own, on stdin):
  echo '{"name": "io.example/memory", "description": "Memory",' \\
    '"version": "1.0.0", "packages": [{"registryType": "npm",' \\
    '"identifier": "@modelcontextprotocol/server-memory",' \\
    '"version": "2025.4.25", "transport": {"type": "stdio"}}]}' \\
    | mcpwire config add memory --from-server-json - --dry-run`,
  app: `Usage: mcpwire app TOOL [--arg k=v ...] [--args-json JSON] [server]
      --no-browser      print the page's address only, open no browser
      --once            stop once the view has its result (else Ctrl-C)
      --trace-file F    the MCP traffic and the view's bridge (the ui lane)

Previews the MCP App of TOOL (its _meta.ui.resourceUri, a ui:// view): connects
the server declaring MCP Apps, serves a host page and the sandbox proxy on two
loopback ports (two origins), prints the page's address and opens it. The page
renders the view with mcpwire/apps: the tool is called with the arguments
given, the view gets its input and result, and what the view does (its calls
to the server's tools, links, messages, model context) is listed beside it.
The view runs under the Content-Security-Policy built from the domains its
resource declares, never more; the page reaches the server only through this
command, on a random address only the printed URL knows.

For example (these open a browser):
  mcpwire app show_weather --server weather --arg city=Oslo
  mcpwire app dashboard --url http://127.0.0.1:3001/mcp --trace-file app.jsonl
  mcpwire trace show app.jsonl     the MCP lane and the ui lane, in order`,
  gateway: `Usage: mcpwire gateway (--http HOST:PORT | --stdio) [--config FILE]
       mcpwire gateway pins [--pins FILE] [--json]
       mcpwire gateway approve NAME... | --all [--pins FILE]
      --http HOST:PORT  serve Streamable HTTP at http://HOST:PORT/mcp (port 0:
                        any free port); prints "listening on URL" once it serves
      --stdio           serve stdin/stdout (logs go to stderr)
      --config FILE     add a config file (repeatable); --cwd DIR for the
                        project's .mcp.json
      --trace-file F    record the upstream traffic, one JSON object per line

Serves every configured server (yours, the project's, --config files) as one
MCP server, to clients of either era: tools and prompts as SERVER__NAME,
resources as mcpwire://SERVER/URI (ui://SERVER+REST for MCP App views), with
progress, cancellation, and the servers' elicitation, sampling and roots
requests passed to the client whose call caused them. The resource
mcpwire://gateway/status says which servers serve and why the others do not.
The config files are watched: a server added, removed or changed reaches the
clients as list_changed. SIGINT or SIGTERM stop it and every server it started.
A "gateway" section beside "mcpServers" in a --config file sets auth (JWT
bearer tokens of an issuer), policies, virtualServers (each at /mcp/NAME),
rateLimit, pins, mode ("search": search_tools and call_tool only), state
(PostgreSQL or Redis, shared by several gateway processes behind a load
balancer: sessions and rate limits), tokenExchange (servers reached as the
calling user, by RFC 8693) and card (its Server Card, name and description);
see docs/gateway.md. With pins, a tool whose
definition changes upstream is withheld until "gateway approve NAME";
"gateway pins" shows each change.

For example (these serve until stopped):
  mcpwire gateway --http 127.0.0.1:8080
  mcpwire gateway --stdio --config team.json

Examples:
  mcpwire gateway pins`,
  'emit-ts': `Usage: mcpwire emit-ts [-o FILE.ts] [server]

Writes a TypeScript module for the server's tools: an input type per tool (from
its inputSchema, via json-schema-to-typescript), an output type per tool with
an outputSchema, and typedTools(client), a typed wrapper over McpClient:
  const tools = typedTools(await McpClient.connect(...));
  const out = await tools.get_weather({ city: 'Oslo' });
A tool with an outputSchema resolves with its structuredContent (checked by
the client), any other with its CallToolResult; a result with isError rejects
with an McpError, code TOOL_ERROR, data the result. The module imports mcpwire
only and compiles in tsc's strict mode. Schema parts that cannot be typed (a
$ref outside the schema, nesting past 64 levels) become unknown, with a warning.
The generator is an optional peer dependency of mcpwire; without it emit-ts
exits 2 and names the install: ${installCommand('json-schema-to-typescript')}

  -o, --output FILE.ts     write the module there (default: stdout; - too)

${TARGET}

Examples:
  mcpwire emit-ts -o tools.ts -- ${EVERYTHING}
  mcpwire emit-ts --server everything > everything-tools.ts

${EXITS}`,
  trace: `Usage:
  mcpwire trace show FILE.jsonl [--method M] [--id ID] [--server NAME]
                     [--errors]
  mcpwire trace check FILE.jsonl [--schemas DIR]
  mcpwire trace export FILE.jsonl --format otlp-json|chrome-trace|har
                       [-o OUT] [--include-payloads]
  mcpwire trace report FILE.jsonl [-o REPORT.html]

show: the frames, filtered, and a latency summary per session (a file that
several runs appended to holds several) and method.
check: every recorded message validated against the rules of its negotiated
revision (and the official JSON Schemas in DIR/<revision>/schema.json when
given); exits 5 when a message breaks one.
export: the trace for other tools, to OUT or stdout: otlp-json (OpenTelemetry
spans by its MCP conventions: Jaeger's upload), chrome-trace (Perfetto,
chrome://tracing), har (the HTTP exchanges; refused for a stdio-only trace).
--include-payloads adds tool arguments and results to the spans (redacted).
report: one self-contained HTML page (default FILE.html beside the trace): a
timeline per server session, latency per method and tool, errors, payloads,
filters kept in the URL. It loads nothing from the network.

Examples:
  mcpwire tools --trace-file everything.jsonl \\
    -- ${EVERYTHING}
  mcpwire trace show everything.jsonl --method tools/list
  mcpwire trace check everything.jsonl
  mcpwire trace export everything.jsonl --format chrome-trace -o trace.json
  mcpwire trace report everything.jsonl -o everything.html`,
  completion: `Usage: mcpwire completion bash|zsh|fish

Prints the shell's completion script. TAB then completes commands, subcommands,
options and the values their help lists, the names of your configured servers,
and a server's tools, prompts and resources as mcpwire last listed them (tools,
call, prompts, resources and servers write them to
$XDG_CACHE_HOME/mcpwire/completion, default ~/.cache/mcpwire/completion): a TAB
never connects to a server.

With a global mcpwire, load it from your shell's start-up file:
  ~/.bashrc                   source <(mcpwire completion bash)
  ~/.zshrc (after compinit)   source <(mcpwire completion zsh)
  ~/.config/fish/config.fish  mcpwire completion fish | source
or install it once (bash's needs the bash-completion package):
  mcpwire completion bash > ~/.local/share/bash-completion/completions/mcpwire
  mcpwire completion zsh > "\${fpath[1]}/_mcpwire"
  mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish
With mcpwire installed in a project (npm install -D mcpwire), load it
in a shell in that project: source <(npx mcpwire completion bash) (zsh alike;
fish: npx mcpwire completion fish | source). Either way the script completes
mcpwire ... and npx mcpwire ...: after npx mcpwire, TAB asks the mcpwire of
node_modules/.bin in the directory you are in or above (else one on PATH) and
says so when there is none.

Examples:
  mcpwire completion bash > mcpwire.bash
  mcpwire completion zsh > _mcpwire
  mcpwire completion fish > mcpwire.fish`,
};
