/**
 * `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions): one long-lived request whose
 * notifications carry the changes the client asked for. The stream opens with
 * `notifications/subscriptions/acknowledged` naming the subset the server honours; then every
 * matching change goes out stamped with `_meta["io.modelcontextprotocol/subscriptionId"]` (the
 * listen request's id), so several listens on one pipe are told apart. It ends:
 * - gracefully, when the transport winds down (`RequestLink.windDown`: the server closes): the
 *   answer is the completion result, `{ resultType: "complete", _meta: { subscriptionId } }`;
 * - on the client's cancel (`RequestLink.signal`: stdio `notifications/cancelled`, HTTP the
 *   stream closed): nothing more is written, and the transport sends no answer.
 * Either way every listener it registered is removed at once; it holds no timer.
 */
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { Disposer } from '../../protocol/transport.js';
import type { ServerCapabilities, SubscriptionFilter } from '../../protocol/types.js';
import type { RequestLink } from './request-link.js';
import { RequestFault } from './request-fault.js';
import type { ServerCore } from './server-core.js';
import { META_KEYS } from '../../protocol/meta-keys.js';

/** The `_meta` key that ties a notification (and the completion result) to its listen request. */
export const SUBSCRIPTION_ID_META = META_KEYS.subscriptionId;

/** Most URIs one listen may name in `resourceSubscriptions` (a bound on what a request can make us hold). */
export const MAX_LISTEN_URIS = 1000;

type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * The filter a listen asked for, cut to what `capabilities` offer: `listChanged` of a list gates
 * its flag, `resources.subscribe` gates `resourceSubscriptions` (the spec: types the server does
 * not support are omitted from the acknowledgment). Throws a -32602 fault for a filter that
 * is not an object, a flag that is not a boolean, or URIs that are not strings (or too many).
 */
export function honouredFilter(notifications: unknown, capabilities: ServerCapabilities): SubscriptionFilter {
  if (typeof notifications !== 'object' || notifications === null || Array.isArray(notifications)) {
    throw RequestFault.invalidParams('subscriptions/listen needs a "notifications" object');
  }
  const asked = notifications as Record<string, unknown>;
  const honoured: SubscriptionFilter = {};
  const flags: Array<[keyof SubscriptionFilter & `${ListKind}ListChanged`, boolean | undefined]> = [
    ['toolsListChanged', capabilities.tools?.listChanged],
    ['promptsListChanged', capabilities.prompts?.listChanged],
    ['resourcesListChanged', capabilities.resources?.listChanged],
  ];
  for (const [flag, offered] of flags) {
    const value = asked[flag];
    if (value !== undefined && typeof value !== 'boolean')
      throw RequestFault.invalidParams(`subscriptions/listen "notifications.${flag}" must be a boolean`);
    if (value === true && offered === true) honoured[flag] = true;
  }
  const uris = asked.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string'))
      throw RequestFault.invalidParams(
        'subscriptions/listen "notifications.resourceSubscriptions" must be an array of URI strings',
      );
    if (uris.length > MAX_LISTEN_URIS)
      throw RequestFault.invalidParams(
        `subscriptions/listen names ${uris.length} resources; at most ${MAX_LISTEN_URIS} per listen`,
      );
    if (capabilities.resources?.subscribe === true && uris.length > 0)
      honoured.resourceSubscriptions = [...new Set(uris)];
  }
  return honoured;
}

/**
 * Serves one listen until it ends (see the file comment). Resolves with the completion result on
 * a graceful end, or undefined on the client's cancel (the caller then answers nothing). Never
 * rejects once the acknowledgment is sent; throws a -32602 fault (before anything is
 * written) for a malformed filter.
 */
export function serveListen(
  core: ServerCore,
  id: JsonRpcId,
  notifications: unknown,
  capabilities: ServerCapabilities,
  link: RequestLink,
): Promise<Record<string, unknown> | undefined> {
  const filter = honouredFilter(notifications, capabilities);
  const stamp = { [SUBSCRIPTION_ID_META]: id };
  const { signal, windDown } = link;
  if (signal.aborted) return Promise.resolve(undefined);
  link.notify('notifications/subscriptions/acknowledged', { _meta: stamp, notifications: filter });
  if (windDown?.aborted) return Promise.resolve({ _meta: stamp });
  return new Promise((resolve) => {
    let open = true;
    const queued = new Set<ListKind>();
    const send = (method: string, params: Record<string, unknown> = {}): void => {
      if (open) link.notify(method, { ...params, _meta: stamp });
    };
    // Several registrations in one tick make one notice, as legacy sessions get.
    const listChanged = (list: ListKind): void => {
      if (queued.has(list)) return;
      queued.add(list);
      queueMicrotask(() => {
        queued.delete(list);
        send(`notifications/${list}/list_changed`);
      });
    };
    const lists = new Set<ListKind>();
    if (filter.toolsListChanged) lists.add('tools');
    if (filter.promptsListChanged) lists.add('prompts');
    if (filter.resourcesListChanged) lists.add('resources');
    const uris = new Set(filter.resourceSubscriptions);
    const disposers: Disposer[] = [];
    if (lists.size > 0 || uris.size > 0)
      disposers.push(
        core.changes.add((change) => {
          if (change.type === 'list_changed' && lists.has(change.list)) listChanged(change.list);
          else if (change.type === 'resource_updated' && uris.has(change.uri))
            send('notifications/resources/updated', { uri: change.uri });
        }),
      );
    const end = (answer: Record<string, unknown> | undefined): void => {
      if (!open) return;
      open = false;
      for (const dispose of disposers) dispose();
      signal.removeEventListener('abort', cancelled);
      windDown?.removeEventListener('abort', woundDown);
      resolve(answer);
    };
    const cancelled = (): void => end(undefined);
    const woundDown = (): void => end({ _meta: stamp });
    signal.addEventListener('abort', cancelled, { once: true });
    windDown?.addEventListener('abort', woundDown, { once: true });
  });
}
