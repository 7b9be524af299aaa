/**
 * A replay POST's response as a {@link PostChannel} of the one POST pipe: what the replayed server
 * sends while the POST's requests run goes out at once as SSE events (the stream opens with the
 * first), then the answers, and the stream ends.
 */
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { PostChannel } from '../../transport/http-server/post-pipe.js';
import { sseMessage } from '../../transport/http-server/sse-writer.js';

export class ReplayPostChannel implements PostChannel {
  readonly resumable = false;

  constructor(
    private readonly sink: ResponseSink,
    private readonly headers: Readonly<Record<string, string>>,
  ) {}

  notify(message: JsonRpcMessage): void {
    if (this.sink.done) return;
    if (!this.sink.started)
      this.sink.open(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...this.headers });
    this.sink.write(sseMessage(JSON.stringify(message)));
  }

  /** The answers as the last events; the stream ends. */
  finish(answers: readonly JsonRpcMessage[]): void {
    for (const answer of answers) this.notify(answer);
    if (!this.sink.started) this.sink.send(202, this.headers);
    else this.sink.end();
  }
}
