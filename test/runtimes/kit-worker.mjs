// The kit of kit.mjs as a Worker (`export default { fetch }`), bundled by test/support/runtimes.ts.
// Built on the first request (toplevel-worker.mjs is the form the docs show, built as the module
// loads). One workerd process here is one isolate, so legacy sessions in memory serve; across
// isolates a legacy session needs a shared store.
import { createKit } from './kit.mjs';

let kit;
export default {
  fetch: (request) => (kit ??= createKit()).fetch(request),
};
