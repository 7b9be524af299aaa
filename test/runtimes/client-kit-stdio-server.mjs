// The kit server of kit.mjs (from the built `mcpwire/server`) over its own stdin/stdout, both
// eras, for the client tests' stdio rows: node test/runtimes/client-kit-stdio-server.mjs. Ends by
// itself when stdin ends (the client closed).
import { StdioServerTransport } from 'mcpwire/server';
import { kitServer } from './kit.mjs';

const server = kitServer(undefined, () => ({ openStreams: 0 }));
await server.connect(new StdioServerTransport()).closed;
await server.close();
