/** `--help` texts, one per command, each with examples. */

const TARGET = `Server (one of):
  -- COMMAND [ARGS...]     a stdio server: everything after -- is its command line
  --url URL                a remote server (Streamable HTTP, either era; HTTP+SSE found by fallback)
    --header 'K: V'        a request header (repeatable); values are never printed
    --transport http|sse   skip detection
  --server NAME            a server from your config (~/.mcpwire/config.json, .mcp.json, ...)
    --config FILE          add a config file (repeatable)
    --trust-project        start project-file servers without approval (else: asked once on a
                           terminal, refused elsewhere)
Connection:
  -e KEY=VALUE             environment for a stdio server (repeatable)
  --cwd DIR                working directory of a stdio server (and of project config lookup)
  --era legacy|modern|auto, --protocol-version V, --timeout MS, --root DIR (declare a root)
Output:
  --json                   one JSON envelope on stdout: {"ok":true,"result":...} or {"ok":false,"error":{...}}
  --trace                  print every JSON-RPC frame on stderr (secrets redacted)
  --trace-file FILE.jsonl  record every frame, one JSON object per line
  --no-color`;

const EXITS = `Exit codes: 0 ok, 1 usage, 2 config error, 3 auth required, 4 server unreachable or failed
to start, 5 tool error (isError, unknown tool, server error), 6 timeout.`;

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
Your config:
  servers     configured servers with status and provenance
  config show|check|import
  repl        interactive /mcp commands over every configured server
Traffic:
  proxy       record the traffic between your host and a server
  trace show|check FILE.jsonl

Examples:
  mcpwire tools -- uvx mcp-server-fetch
  mcpwire call fetch --arg url=https://example.com -- uvx mcp-server-fetch
  mcpwire info --url http://127.0.0.1:3000/mcp --header "Authorization: Bearer $TOKEN"
  mcpwire tools --server github --trace

'mcpwire COMMAND --help' for a command's options.
${EXITS}`,
  info: `Usage: mcpwire info [server]\n\nShows the era, protocol version, server info, capabilities and instructions.\n\n${TARGET}\n\nExample:\n  mcpwire info -- node server.js\n  mcpwire info --url http://127.0.0.1:3000/mcp --json`,
  tools: `Usage: mcpwire tools [server]\n\nLists every tool (all pages): name, arguments (* = required), description.\n\n${TARGET}\n\nExample:\n  mcpwire tools -- uvx mcp-server-fetch`,
  call: `Usage: mcpwire call TOOL [--arg k=v ...] [--args-json JSON] [server]\n\nCalls a tool. --arg values are read as JSON when they are JSON (n=3 is a number, ok=true a\nboolean, s='"3"' a string); --arg wins over --args-json. On a terminal, progress shows as a live\nline and the server's questions (elicitation) are asked interactively; otherwise they are\ndeclined. --max-chars N caps the printed text (--json prints the whole result).\n\n${TARGET}\n\nExamples:\n  mcpwire call fetch --arg url=https://example.com --arg max_length=2000 -- uvx mcp-server-fetch\n  mcpwire call get-sum --args-json '{"a":1,"b":2}' --server everything --json\n\n${EXITS}`,
  resources: `Usage: mcpwire resources [server]\n\nLists resources (all pages).\n\n${TARGET}`,
  templates: `Usage: mcpwire templates [server]\n\nLists resource templates.\n\n${TARGET}`,
  read: `Usage: mcpwire read URI [server]\n\nReads a resource and prints its text (blobs are summarised; --json has them).\n\n${TARGET}\n\nExample:\n  mcpwire read file:///srv/notes/todo.md --server files`,
  prompts: `Usage: mcpwire prompts [server]\n\nLists prompts with their arguments (* = required).\n\n${TARGET}`,
  prompt: `Usage: mcpwire prompt NAME [--arg k=v ...] [server]\n\nRenders a prompt.\n\n${TARGET}\n\nExample:\n  mcpwire prompt fetch --arg url=https://example.com -- uvx mcp-server-fetch`,
  complete: `Usage: mcpwire complete (--prompt NAME | --resource URI_TEMPLATE) --argument NAME [--value PREFIX] [--context k=v ...] [server]\n\nAsks the server to complete an argument value.\n\n${TARGET}\n\nExample:\n  mcpwire complete --prompt greet --argument name --value Al -- node server.js`,
  ping: `Usage: mcpwire ping [server]\n\nChecks the server answers and prints the round-trip time (2026-07-28 has no ping:\nserver/discover is used).\n\n${TARGET}`,
  servers: `Usage: mcpwire servers [--no-connect] [--trust-project] [--config FILE ...] [--cwd DIR]\n\nThe effective servers of your config files (user ~/.mcpwire/config.json, project .mcp.json,\n--config files), with their status, tool count and where each is defined. Servers are connected\nin parallel to show their status; --no-connect only lists. Servers defined by project files run\nonly when approved: stored approvals, an interactive question on a terminal, or --trust-project.\n\nExample:\n  mcpwire servers --json`,
  config: `Usage:\n  mcpwire config show [--server NAME]   effective config, secrets redacted, with the file each server came from\n  mcpwire config check                 validate every file; exit 2 on errors\n  mcpwire config import --from claude-desktop|claude-code|cursor|vscode [--write FILE] [--force] [--project DIR]\n                                       print (or write) an .mcp.json with that host's servers\n\nCommon: --config FILE (repeatable), --cwd DIR, --json.\n\nExamples:\n  mcpwire config check --cwd ~/src/app\n  mcpwire config import --from claude-desktop --write .mcp.json`,
  repl: `Usage: mcpwire repl [--config FILE ...] [--trust-project]\n\nAn interactive prompt over every configured server: /mcp, /mcp servers, /mcp tools [server],\n/mcp resources, /mcp prompts, /mcp connect|disconnect|reconnect NAME, /mcp reload,\ncall mcp__server__tool {json} | k=v ..., help, exit.`,
  proxy: `Usage:\n  mcpwire proxy [--trace-file FILE.jsonl] [--trace] -- SERVER COMMAND...\n  mcpwire proxy --url URL [--listen 127.0.0.1:PORT] [--header 'K: V'] [--trace-file FILE.jsonl]\n\nStands in for a server in your host's config (Claude Desktop, Cursor, your own agent) and\nrecords the traffic. stdio: bytes are forwarded unchanged both ways, stderr passes through,\nsignals are forwarded, and the proxy exits as the server did. HTTP: a reverse proxy on\n127.0.0.1; point the host at the printed URL.\n\nExample (.mcp.json):\n  { "mcpServers": { "fetch": { "command": "mcpwire", "args": ["proxy", "--trace-file", "/tmp/fetch.jsonl",\n      "--", "uvx", "mcp-server-fetch"] } } }`,
  trace: `Usage:\n  mcpwire trace show FILE.jsonl [--method M] [--id ID] [--server NAME] [--errors]\n  mcpwire trace check FILE.jsonl [--schemas DIR]\n\nshow: the frames, filtered, and a latency summary per session (a file that several runs\nappended to holds several) and method.\ncheck: every recorded message validated against the rules of its negotiated revision (and the\nofficial JSON Schemas in DIR/<revision>/schema.json when given); exits 5 when a message breaks one.`,
};
