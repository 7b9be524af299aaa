import { describe, expect, it } from 'vitest';
import { isMcpError, McpError } from '../src/protocol/errors.js';

describe('McpError', () => {
  it('names the server and the method in the message and keeps the cause', () => {
    const cause = new Error('EPIPE');
    const error = new McpError('TIMEOUT', 'timed out after 30000 ms', { server: 'fs', method: 'tools/call', cause });
    expect(error.message).toBe('server "fs": tools/call timed out after 30000 ms');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('McpError');
    expect(error).toBeInstanceOf(Error);
  });

  it('keeps the peer numeric code and data apart from the string code', () => {
    const error = new McpError('SERVER_ERROR', 'failed: nope (-32602)', {
      server: 's',
      method: 'm',
      rpcCode: -32602,
      data: { a: 1 },
    });
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.rpcCode).toBe(-32602);
    expect(error.toJSON()).toEqual({
      code: 'SERVER_ERROR',
      message: 'server "s": m failed: nope (-32602)',
      server: 's',
      method: 'm',
      rpcCode: -32602,
      data: { a: 1 },
    });
  });

  it('is recognised by isMcpError with or without a code', () => {
    const error = new McpError('CANCELLED', 'x');
    expect(isMcpError(error)).toBe(true);
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    expect(isMcpError(error, 'TIMEOUT')).toBe(false);
    expect(isMcpError(new Error('x'))).toBe(false);
  });
});
