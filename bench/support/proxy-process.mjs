#!/usr/bin/env node
// The round-robin proxy (round-robin-proxy.mjs) as a process of its own, so the load's client
// and the proxy do not share an event loop: `node bench/support/proxy-process.mjs URL...` proxies
// to the given backends and prints {"port":N} on stdout once listening; SIGTERM closes it.
import { listenRoundRobinProxy } from './round-robin-proxy.mjs';

const proxy = await listenRoundRobinProxy(process.argv.slice(2), { logLimit: 1 });
process.stdout.write(`${JSON.stringify({ port: proxy.port })}\n`);
process.once('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
