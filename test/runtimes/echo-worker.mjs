// The smallest Worker: the echo app of echo-app.mjs as `export default { fetch }`, to prove the
// workerd harness alone (bundle, config, listen, a request, stop).
import { createApp } from './echo-app.mjs';

const app = await createApp();
export default { fetch: (request) => app.fetch(request) };
