/**
 * One replayed session over a message pipe: a {@link JsonRpcConnection} in the server role whose
 * router is a {@link ReplayPlayer}. Over stdio, the end of the client's input is the spec's
 * shutdown: the requests in flight are answered, then the session closes.
 */
import { JsonRpcConnection } from '../../protocol/connection.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { CloseInfo, Disposer, Transport } from '../../protocol/transport.js';
import { isStdioServerTransport } from '../../transport/kinds.js';
import type { ReplayPlayer } from './replay-player.js';

export class ReplaySession {
  readonly connection: JsonRpcConnection<ServerRole>;
  /** Resolves (never rejects) once the connection closed, for whatever reason. */
  readonly closed: Promise<CloseInfo>;
  private readonly disposers: Disposer[];
  private ending = false;

  constructor(
    transport: Transport,
    readonly player: ReplayPlayer,
  ) {
    // The replayed requests to the client wait for it as long as the live request they serve.
    this.connection = new JsonRpcConnection<ServerRole>(transport, {
      role: 'server',
      idPrefix: 's',
      answerMalformed: true,
      defaultTimeoutMs: Infinity,
      maxTotalTimeoutMs: Infinity,
    });
    this.disposers = [
      ...player.attach(this.connection),
      this.connection.onInboundEnd(() => {
        if (this.ending && this.connection.inboundCount === 0) void this.close();
      }),
    ];
    if (isStdioServerTransport(transport)) void transport.inputEnded.then(() => this.finishUp());
    this.closed = this.connection.closed.then((info) => {
      for (const dispose of this.disposers) dispose();
      return info;
    });
  }

  /** The client sent its last message: answer what is in flight, then close. */
  finishUp(): void {
    if (this.ending) return;
    this.ending = true;
    this.connection.endOfInput('the client ended its input');
    this.player.stop();
    if (this.connection.inboundCount === 0) void this.close();
  }

  /** Closes once the queued messages went out. Idempotent; never rejects. */
  async close(): Promise<void> {
    this.ending = true;
    this.player.stop();
    await this.player.settled();
    await this.connection.close();
  }
}
