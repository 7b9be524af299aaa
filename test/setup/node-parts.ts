// Tests deep-import the client (`src/client/mcp-client.ts`), not the node entry that registers
// its Node parts: register them here, as `src/index.ts` does, so stdio connects work in every file.
// A test of the neutral behaviour disposes the registration it needs gone (see stdio-launcher.ts).
import { installNodeParts } from '../../src/client/node-parts.js';

installNodeParts();
