// The smallest app for serve.mjs: a fetch handler that answers every request with its method and
// path as JSON, so a test proves the runtime harness alone (start, a request, stop, no process left).
export async function createApp() {
  let open = true;
  return {
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      return Response.json({ method: request.method, path: pathname, open });
    },
    close: async () => {
      open = false;
    },
  };
}
