/**
 * The {@link McpConnectionFacts} of a connection, made by the layer that builds it: a client's
 * from the transport it connected (its kind, its URL, its HTTP session), a server's from what
 * the server kit knows as it serves (its revision once negotiated, the POST being served).
 */
import type { Transport } from '../protocol/transport.js';
import {
  isHttpTransport,
  isStdioServerTransport,
  isStdioTransport,
  isStreamableHttpTransport,
} from '../transport/kinds.js';
import type { McpConnectionFacts, McpTransportKind } from './channel-events.js';

/** Facts whose every field the server kit sets as it learns them. */
export class ServerConnectionFacts implements McpConnectionFacts {
  readonly role = 'server';
  peer = 'client';
  sessionId: string | undefined = undefined;
  serverAddress: string | undefined = undefined;
  serverPort: number | undefined = undefined;
  clientAddress: string | undefined = undefined;
  clientPort: number | undefined = undefined;

  /** `revision`: where the negotiated revision is read (the kit keeps it in its legacy session state). */
  constructor(
    readonly transport: McpTransportKind,
    public revision: () => string | undefined = () => undefined,
  ) {}

  get protocolVersion(): string | undefined {
    return this.revision();
  }
}

/**
 * A client's facts over `transport` (the concrete one, under any decorator): `peer` is the server's
 * display name, `protocolVersion` reads the negotiated revision when asked.
 */
export function clientConnectionFacts(
  transport: Transport,
  peer: string,
  protocolVersion: () => string | undefined,
): McpConnectionFacts {
  const url = isHttpTransport(transport) ? transport.url : undefined;
  const http = isStreamableHttpTransport(transport) ? transport : undefined;
  const port = url ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : undefined;
  return {
    role: 'client',
    peer,
    transport: kindOf(transport),
    get protocolVersion() {
      return protocolVersion();
    },
    get sessionId() {
      return http?.sessionId;
    },
    serverAddress: url?.hostname.replace(/^\[|\]$/g, ''),
    serverPort: port,
    clientAddress: undefined,
    clientPort: undefined,
  };
}

function kindOf(transport: Transport): McpTransportKind {
  if (isStdioTransport(transport) || isStdioServerTransport(transport)) return 'stdio';
  if (isStreamableHttpTransport(transport)) return 'http';
  if (isHttpTransport(transport)) return 'sse';
  return 'memory';
}
