/**
 * `app/mcp/route.ts` as a Next.js App Router app writes it: each HTTP method is the kit's fetch
 * handler, which ignores the context (`{ params }`) Next.js passes second.
 */
import { handler } from './mcp.js';

export const GET = handler;
export const POST = handler;
export const DELETE = handler;
export const OPTIONS = handler;
