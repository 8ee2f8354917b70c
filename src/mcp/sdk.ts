/**
 * Loads the optional peer @modelcontextprotocol/sdk on first use, so `a2a-kit/mcp` can be
 * imported (and the rest of a2a-kit used) without it; a missing package is a
 * MissingDependencyError that says what to install. Every other file of src/mcp imports the SDK
 * for types only.
 */
import type * as ServerModule from '@modelcontextprotocol/sdk/server/index.js';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';
import type * as StdioServerModule from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as StdioClientModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpServerModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type * as HttpClientModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isMissingPackage, MissingDependencyError } from '../core/missing-dependency.js';

const PKG = '@modelcontextprotocol/sdk';

/** The SDK modules the bridge uses, loaded together. */
export interface McpSdk {
  server: typeof ServerModule;
  client: typeof ClientModule;
  types: typeof TypesModule;
  stdioServer: typeof StdioServerModule;
  stdioClient: typeof StdioClientModule;
  httpServer: typeof HttpServerModule;
  httpClient: typeof HttpClientModule;
}

let loading: Promise<McpSdk> | undefined;

/** The SDK, imported once; rejects with a MissingDependencyError when it is not installed. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk().catch((error: unknown) => {
    loading = undefined;
    throw isMissingPackage(error, PKG)
      ? new MissingDependencyError(
          {
            packages: [PKG],
            feature: 'the MCP bridge (a2a-kit/mcp)',
            install: `npm install ${PKG}`,
          },
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
