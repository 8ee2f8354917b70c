/**
 * `npm start`: serves the demo agent over JSON-RPC, HTTP+JSON and gRPC, A2A 1.0 and 0.3, with
 * everything the toolkit offers switched on: streaming, push notifications (signed; webhooks on loopback allowed,
 * for this demo only), a signed Agent Card, and an extended card behind the token `auth` gives.
 * Usage: node dist/src/demo/main.js [--port N] [--host H] [--public-url URL]
 *        [--grpc-port N] [--no-grpc] [--store PATH|memory|postgres://…]
 * Tasks persist in a SQLite file (.a2a/tasks.db) unless --store (or A2A_STORE) says otherwise.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { newId } from '../core/ids.js';
import { GrpcListenError, serve, type ServeOptions, type ServeResult } from '../node/index.js';
import { PUSH_JWKS_PATH } from '../push/jwks.js';
import { PushSigner } from '../push/signing.js';
import { generateSigningKey, staticSecrets } from '../security/index.js';
import { createDemoAgent, type DemoAgentOptions } from './agent.js';
import {
  DEFAULT_STORE_PATH,
  openStore,
  storeSettingsFromEnv,
  type StoreSettings,
} from '../node/open-store.js';
import { demoGrpc, type DemoGrpcOptions } from './grpc.js';
import type { Logger } from '../core/logger.js';
import { requestLog } from '../server/request-log.js';

/** The push notifier's outcome lines (URLs without credentials) as structured lines. */
export function pushLines(log: Logger): Pick<Console, 'info' | 'warn'> {
  return {
    info: (line: string) => log.info({ event: 'a2a.push' }, line),
    warn: (line: string) => log.warn({ event: 'a2a.push' }, line),
  };
}

/** Options of {@link startDemo}. */
export interface DemoOptions extends DemoGrpcOptions {
  /** TCP port (default 8765; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Public origin the card advertises when behind a proxy (default the listening address). */
  publicUrl?: string;
  /** Where agent failures are logged (default `console`; `null` for silence). */
  logger?: Pick<Console, 'warn' | 'error'> | null;
  /** Structured log: one line per request, per task transition and per push outcome. */
  log?: Logger | undefined;
  /**
   * Where tasks live: a SQLite file path, `memory` or a `postgres://` URL (default here
   * `memory`; `npm start` and `a2a serve` use `.a2a/tasks.db`).
   */
  store?: string;
  /** Retention, PostgreSQL schema and lease settings of the store (see src/node/open-store.ts). */
  storeSettings?: StoreSettings;
  /** The agent's timing and the token `auth` hands out (default: a new token per start). */
  agent?: DemoAgentOptions;
  /** Mount the web inspector at `/inspector` (see ServeOptions.inspector; docs/inspector.md). */
  inspector?: ServeOptions['inspector'];
}

/** A running demo agent: where its tasks live, and the bearer token of its extended card. */
export type DemoServer = ServeResult & { storage: string; token: string };

/**
 * Webhook hosts the demo's push notifier may call over http: loopback, so `a2a push receive`
 * on this machine works. For this demo only: a real agent keeps the SSRF guard's default
 * (https, no loopback or private addresses; docs/push.md).
 */
export const DEMO_WEBHOOK_HOSTS = ['127.0.0.1', '[::1]'];

/** Default port of the demo agent. */
export const DEFAULT_PORT = 8765;

/** Starts the demo agent in this process (gRPC too, see grpc.ts); `close()` the result to stop it. */
export async function startDemo(options: DemoOptions = {}): Promise<DemoServer> {
  const port = options.port ?? DEFAULT_PORT;
  const { log } = options;
  const logger = options.logger !== undefined ? { logger: options.logger } : {};
  const opened = await openStore(options.store ?? 'memory', {
    ...options.storeSettings,
    ...logger,
  });
  const token = options.agent?.token ?? `demo-${newId()}`;
  let running: ServeResult;
  try {
    running = await serve(createDemoAgent({ ...options.agent, token }), {
      port,
      grpc: await demoGrpc(port, options),
      // A2A 0.3 callers are served too, at the same URLs (docs/interop.md).
      compat: ['0.3'],
      host: options.host ?? '127.0.0.1',
      publicUrl: options.publicUrl,
      ...opened.serverOptions,
      // Anonymous callers may do everything; the token makes the caller "demo-user" and
      // unlocks GetExtendedAgentCard.
      auth: { schemes: { demoToken: { bearer: staticSecrets({ [token]: { id: 'demo-user' } }) } } },
      push: {
        signer: await PushSigner.generate(),
        allowHosts: DEMO_WEBHOOK_HOSTS,
        ...(options.logger === null ? { logger: null } : {}),
        ...(log ? { logger: pushLines(log) } : {}),
      },
      ...(log ? { log, middleware: [requestLog(log)] } : {}),
      signCard: { key: await generateSigningKey('ES256'), jku: true },
      ...(options.inspector !== undefined ? { inspector: options.inspector } : {}),
      ...logger,
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  // Only this process uses the SQLite file: what a previous run left running (it was killed)
  // is taken over now, not after the lease timeout. Done once listening, so a second start
  // that fails (port in use) never touches the tasks of the running one.
  if (opened.exclusive) await running.server.ownership?.takeOverAll();
  return Object.assign(running, { storage: opened.description, token });
}

const USAGE = `Usage: npm start -- [--port N] [--host H] [--public-url URL]
  --port N          port to listen on (default: $PORT or ${DEFAULT_PORT}; 0 = any free port)
  --host H          interface to bind (default 127.0.0.1; 0.0.0.0 for all)
  --public-url URL  origin the Agent Card advertises, when behind a proxy
  --grpc-port N     gRPC port (default: the HTTP port + 1; 0 when the HTTP port is 0)
  --no-grpc         serve JSON-RPC and HTTP+JSON only
  --store S         where tasks live: a SQLite file (default: $A2A_STORE or ${DEFAULT_STORE_PATH}),
                    memory, or postgres://user@host/db (several instances share it)`;

/** Reads the command line and environment; throws a usage message on bad input. */
export function parseDemoArgs(argv: string[], env: NodeJS.ProcessEnv): DemoOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
      'grpc-port': { type: 'string' },
      'no-grpc': { type: 'boolean' },
      store: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const options: DemoOptions = {};
  const port = values.port ?? env.PORT;
  if (port !== undefined && port !== '') {
    if (!/^\d+$/.test(port) || Number(port) > 65535) {
      throw new Error(`Invalid port "${port}": use a number from 0 to 65535`);
    }
    options.port = Number(port);
  }
  if (values.host !== undefined) options.host = values.host;
  if (values['public-url'] !== undefined) options.publicUrl = values['public-url'];
  const grpcPort = values['grpc-port'];
  if (grpcPort !== undefined) {
    if (!/^\d+$/.test(grpcPort) || Number(grpcPort) > 65535) {
      throw new Error(`Invalid gRPC port "${grpcPort}": use a number from 0 to 65535`);
    }
    options.grpcPort = Number(grpcPort);
  }
  if (values['no-grpc']) options.grpc = false;
  const store = values.store ?? env['A2A_STORE'];
  if (store !== undefined && store !== '') options.store = store;
  return options;
}

/**
 * The one line to print when the demo could not listen because `error` says a port is taken
 * (HTTP on `port`, or gRPC), with what to do; undefined for any other error.
 */
export function portInUse(error: unknown, port: number): string | undefined {
  if ((error as { code?: unknown }).code !== 'EADDRINUSE') return undefined;
  if (error instanceof GrpcListenError) {
    return (
      `port ${error.port} is in use (the demo's gRPC port, the HTTP port + 1): pick another ` +
      'with --grpc-port N (0 = any free port), or serve without gRPC: --no-grpc'
    );
  }
  return `port ${port} is in use: pick another with --port N or PORT=N (0 = any free port)`;
}

/** The banner: where the agent is, what it offers, and one request to try. */
export function banner({ url, grpcUrl, storage }: DemoServer): string {
  const body = '{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"echo hi"}]}}';
  return [
    `a2a-kit demo agent is running`,
    `  Agent Card  ${url}/.well-known/agent-card.json  (signed; keys at /.well-known/jwks.json)`,
    `  JSON-RPC    ${url}/a2a/jsonrpc  (A2A 1.0; 0.3 for requests without A2A-Version)`,
    `  HTTP+JSON   ${url}/a2a/rest     (A2A 1.0; 0.3 under /v1 without A2A-Version)`,
    ...(grpcUrl !== undefined ? [`  gRPC        ${grpcUrl}  (lf.a2a.v1.A2AService)`] : []),
    `  Tasks       ${storage}`,
    `  Push        signed (keys at ${PUSH_JWKS_PATH}); webhooks on loopback (http://127.0.0.1:…)`,
    `              are allowed for this demo only: a real agent refuses them (docs/push.md)`,
    `  Extended    GetExtendedAgentCard with the bearer token the "auth" command hands out`,
    ``,
    `Try it:`,
    `  curl -s ${url}/a2a/rest/message:send -H 'A2A-Version: 1.0' \\`,
    `    -H 'Content-Type: application/json' -d '${body}'`,
    ``,
    `Commands: echo <text>, hi, book, story [n], slow [seconds], reject, fail, auth, whoami (see README).`,
    `Press Ctrl+C to stop.`,
  ].join('\n');
}

async function main(): Promise<void> {
  let options: DemoOptions | 'help';
  try {
    options = parseDemoArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  let running: DemoServer;
  try {
    const storeSettings = storeSettingsFromEnv(process.env);
    running = await startDemo({ store: DEFAULT_STORE_PATH, ...options, storeSettings });
  } catch (error) {
    const inUse = portInUse(error, options.port ?? DEFAULT_PORT);
    console.error(
      inUse ??
        `Could not start the demo agent: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(inUse !== undefined ? 2 : 1);
  }
  console.log(banner(running));

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    console.log(`\n${signal}: shutting down.`);
    running.close().then(
      // Running tasks (a `slow` one) are not waited for: with a durable store the next start
      // takes them over (fails them, saying why), like after a crash.
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
