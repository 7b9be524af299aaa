/**
 * Publishes each forwarded call on `mcpwire:gateway-forward` (docs/observability.md): the audit
 * facts of where a downstream call went (the upstream server, its own name of the tool, prompt or
 * resource) and who asked (the verified principal; never the token). When nobody listens it costs
 * one check.
 */
import type { McpGatewayForwardEvent } from '../observe/channel-events.js';
import { gatewayForwardChannel as channel } from '../observe/channels.js';
import type { RequestContext } from '../server/server-types.js';

/** Who a request comes from by its verified token: the subject, else the OAuth client; undefined without auth. */
export function auditPrincipal(context: RequestContext): string | undefined {
  return context.auth?.subject ?? context.auth?.clientId;
}

/**
 * Runs `call` inside the channel's stores with `facts()` published (`start`, `end`, then `error`
 * when it rejected, `asyncStart`, `asyncEnd`): a subscriber's bound store is active in the whole
 * upstream call. Resolves and rejects as `call` does.
 */
export function publishForward<T>(facts: () => McpGatewayForwardEvent, call: () => Promise<T>): Promise<T> {
  // The facts are made only for a listener: a call nobody audits allocates nothing here.
  if (!channel.hasSubscribers) return call();
  const event: McpGatewayForwardEvent = facts();
  const settle = () => {
    channel.asyncStart.publish(event);
    channel.asyncEnd.publish(event);
  };
  const failed = (error: unknown) => {
    event.error = error;
    channel.error.publish(event);
  };
  let running: Promise<T>;
  try {
    running = channel.start.runStores(event, call);
  } catch (error) {
    channel.end.publish(event);
    failed(error);
    settle();
    throw error;
  }
  channel.end.publish(event);
  return running.then(
    (value) => {
      settle();
      return value;
    },
    (error: unknown) => {
      failed(error);
      settle();
      throw error;
    },
  );
}
