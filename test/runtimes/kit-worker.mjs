// The kit of kit.mjs as a Worker (`export default { fetch }`), bundled by test/support/runtimes.ts.
// Built on the first request: a Worker may not start timers or draw random numbers at its top
// level. One workerd process here is one isolate, so legacy sessions in memory serve; across
// isolates a legacy session needs a shared store.
import { createKit } from './kit.mjs';

let kit;
export default {
  fetch: (request) => (kit ??= createKit()).fetch(request),
};
