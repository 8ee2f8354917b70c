/**
 * `npm start`: serves the demo agent over JSON-RPC and HTTP+JSON.
 * Usage: node dist/examples/demo-agent/main.js [--port N] [--host H] [--public-url URL]
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serve, type ServeResult } from '../../src/node/index.js';
import { demoAgent } from './agent.js';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** TCP port (default 8765; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Public origin the card advertises when behind a proxy (default the listening address). */
  publicUrl?: string;
  /** Where agent failures are logged (default `console`; `null` for silence). */
  logger?: Pick<Console, 'warn' | 'error'> | null;
}

/** Default port of the demo agent. */
export const DEFAULT_PORT = 8765;

/** Starts the demo agent in this process; `close()` the result to stop it. */
export function startDemo(options: DemoOptions = {}): Promise<ServeResult> {
  return serve(demoAgent, {
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? '127.0.0.1',
    publicUrl: options.publicUrl,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
}

const USAGE = `Usage: npm start -- [--port N] [--host H] [--public-url URL]
  --port N          port to listen on (default: $PORT or ${DEFAULT_PORT}; 0 = any free port)
  --host H          interface to bind (default 127.0.0.1; 0.0.0.0 for all)
  --public-url URL  origin the Agent Card advertises, when behind a proxy`;

/** Reads the command line and environment; throws a usage message on bad input. */
export function parseDemoArgs(argv: string[], env: NodeJS.ProcessEnv): DemoOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
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
  return options;
}

/** The banner: where the agent is and one request to try. */
function banner(url: string): string {
  const body = '{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"echo hi"}]}}';
  return [
    `a2a-kit demo agent is running`,
    `  Agent Card  ${url}/.well-known/agent-card.json`,
    `  JSON-RPC    ${url}/a2a/jsonrpc`,
    `  HTTP+JSON   ${url}/a2a/rest`,
    ``,
    `Try it:`,
    `  curl -s ${url}/a2a/rest/message:send -H 'A2A-Version: 1.0' \\`,
    `    -H 'Content-Type: application/json' -d '${body}'`,
    ``,
    `Commands: echo <text>, hi, book, story [n], slow [seconds], reject, fail, auth (see README).`,
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
  let running: ServeResult;
  try {
    running = await startDemo(options);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const port = options.port ?? DEFAULT_PORT;
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${port} is already in use: pick another with --port N or PORT=N.`
        : `Could not start the demo agent: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
  console.log(banner(running.url));

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second Ctrl+C does not wait
    stopping = true;
    console.log(`\n${signal}: shutting down.`);
    running.close().then(
      // Running tasks (a `slow` one) live in memory only: exit instead of waiting for them.
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
