/**
 * mcpwire's client for one test: connected like `McpClient.connect`, closed when the test
 * finishes (`onTestFinished`, so after the test's `afterEach` hooks and before anything the test
 * started earlier). Call it inside a test.
 */
import { onTestFinished } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';

/** `McpClient.connect(target, options)`, closed when the test finishes; rejects as connect does. */
export async function connectClient(...args: Parameters<typeof McpClient.connect>): Promise<McpClient> {
  const client = await McpClient.connect(...args);
  onTestFinished(() => client.close());
  return client;
}
