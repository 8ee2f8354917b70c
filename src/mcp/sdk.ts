/**
 * Loads the optional peer @modelcontextprotocol/sdk on first use, so `a2a-kit/mcp` can be
 * imported (and the rest of a2a-kit used) without it; a missing package is a
 * MissingDependencyError that says what to install. Every other file of src/mcp imports the SDK
 * for types only.
 */
import { isMissingPackage, MissingDependencyError } from '../core/missing-dependency.js';

const PKG = '@modelcontextprotocol/sdk';

/** The SDK modules the bridge uses, loaded together. */
export interface McpSdk {
  server: typeof import('@modelcontextprotocol/sdk/server/index.js');
  client: typeof import('@modelcontextprotocol/sdk/client/index.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  stdioServer: typeof import('@modelcontextprotocol/sdk/server/stdio.js');
  stdioClient: typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  httpServer: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
  httpClient: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
}

let loading: Promise<McpSdk> | undefined;

/** The SDK, imported once; rejects with a MissingDependencyError when it is not installed. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk().catch((error: unknown) => {
    loading = undefined;
    throw isMissingPackage(error, PKG)
      ? new MissingDependencyError(
          { packages: [PKG], feature: 'the MCP bridge (a2a-kit/mcp)', install: `npm install ${PKG}` },
          error,
        )
      : error;
  });
  return loading;
}

async function importSdk(): Promise<McpSdk> {
  const [server, client, types, stdioServer, stdioClient, httpServer, httpClient] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
  return { server, client, types, stdioServer, stdioClient, httpServer, httpClient };
}
