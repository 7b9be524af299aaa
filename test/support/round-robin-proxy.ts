/**
 * A load balancer in the test: the round-robin reverse proxy of `bench/support/round-robin-proxy.mjs`
 * (plain JavaScript, shared with the scaled bench; see there for what it does), and
 * {@link startRoundRobinProxy}, which closes it when the test finishes.
 */
import { onTestFinished } from 'vitest';
import {
  listenRoundRobinProxy,
  type ProxyOptions,
  type ProxyTarget,
  type RoundRobinProxy,
} from '../../bench/support/round-robin-proxy.mjs';

export { listenRoundRobinProxy };
export type {
  DropOptions,
  ProxyBackend,
  ProxyOptions,
  ProxyRecord,
  ProxyTarget,
  RoundRobinProxy,
} from '../../bench/support/round-robin-proxy.mjs';

/** {@link listenRoundRobinProxy}, closed when the test finishes (call it inside a test). */
export async function startRoundRobinProxy(
  targets: ReadonlyArray<string | ProxyTarget>,
  options?: ProxyOptions,
): Promise<RoundRobinProxy> {
  const proxy = await listenRoundRobinProxy(targets, options);
  onTestFinished(() => proxy.close());
  return proxy;
}
