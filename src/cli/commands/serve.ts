/** `a2a serve`: runs the demo agent in this process until Ctrl+C. */
import type * as DemoMain from '../../demo/main.js';
import { DEFAULT_STORE_PATH, storeSettingsFromEnv } from '../../node/open-store.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { booleanFlag, intFlag, stringFlag } from '../options.js';
import { lineLogger, logFlags } from '../serve/log-lines.js';
import { busSettings, runMode, serveMode } from '../serve/modes.js';
import { noExtraArgs } from '../task-helpers.js';

/** Loads the demo agent (src/demo), only for the verbs that run it. */
export function loadDemoAgent(): Promise<typeof DemoMain> {
  return import('../../demo/main.js');
}

/** Resolves when `signal` fires. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The `serve` verb. */
export const serveCommand: Command = {
  name: 'serve',
  summary:
    'run the demo agent, any command (--exec), an MCP server (--mcp), an echo agent or a gateway (--proxy)',
  usage: [
    'serve [--port N] [--host H] [--grpc-port N | --no-grpc] [--store S] [--bus nats://…] [--inspector] [--log-format F]',
    "serve --exec 'CMD' [--chunk DELIM] [--card FILE | --name N --description D] [--port N]",
    'serve --echo [--name N] [--port N]',
    'serve --proxy URL [--token T | --auth CREDS] [--quiet] [--port N]',
    "serve --mcp 'CMD ARGS' | --mcp URL [--name N --description D] [--port N]",
  ],
  flags: {
    exec: { type: 'string' },
    chunk: { type: 'string' },
    echo: { type: 'boolean' },
    proxy: { type: 'string' },
    mcp: { type: 'string' },
    card: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    quiet: { type: 'boolean' },
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'grpc-port': { type: 'string' },
    'no-grpc': { type: 'boolean' },
    store: { type: 'string' },
    inspector: { type: 'boolean' },
    'force-inspector': { type: 'boolean' },
    'log-format': { type: 'string' },
    'log-level': { type: 'string' },
    bus: { type: 'string' },
  },
  flagHelp: [
    ['--exec CMD', 'run CMD (sh -c) per message: the message text on stdin, stdout streamed back'],
    [
      '--chunk DELIM',
      'with --exec: cut stdout into artifact chunks here (default \\n; "" = whole)',
    ],
    ['--echo', 'an agent that answers with the text it gets (connectivity checks)'],
    ['--proxy URL', 'a gateway to the agent at URL: every operation forwarded, calls logged'],
    [
      '--mcp CMD|URL',
      'an MCP server (a stdio command line, or a Streamable HTTP URL) as an agent: tools = skills',
    ],
    ['--card FILE|URL', 'with --exec/--echo: serve this Agent Card (its interfaces are replaced)'],
    ['--name N, --description D', 'with --exec/--echo: the generated card'],
    ['--quiet', 'with --proxy: do not log each call on stderr'],
    ['-p, --port N', 'port to listen on (default $PORT or 8765; 0 = any free port)'],
    ['--host H', 'interface to bind (default 127.0.0.1; 0.0.0.0 for every interface)'],
    ['--grpc-port N', 'gRPC port (default: the HTTP port + 1; 0 when the HTTP port is 0)'],
    ['--no-grpc', 'serve JSON-RPC and HTTP+JSON only'],
    ['--inspector', 'also serve the web inspector at /inspector (loopback hosts only)'],
    ['--force-inspector', 'with --inspector: allow it on a non-loopback --host (development only)'],
    ['--log-format json|pretty', 'one line per request and task transition on stderr'],
    ['--log-level L', 'debug, info (default), warn or error; implies --log-format pretty'],
    [
      '--store S',
      `where tasks live: a SQLite file (default $A2A_STORE or ${DEFAULT_STORE_PATH}), memory, or postgres://…`,
    ],
    [
      '--bus URL',
      'live events between instances over NATS JetStream: nats://host:port[/prefix] (default $A2A_BUS; not with --proxy)',
    ],
  ],
  examples: [
    'serve',
    'serve --port 9000 --host 0.0.0.0',
    `serve & a2a discover ${EXAMPLE_URL}`,
    "serve --exec 'tr a-z A-Z' --name Shout --port 9001",
    "serve --exec 'for i in 1 2 3; do echo $i; sleep 0.5; done' --port 9002",
    'serve --proxy http://127.0.0.1:8765 --port 9003 --token s3cret',
    "serve --mcp 'npx -y @modelcontextprotocol/server-everything' --port 9004",
    'serve --mcp http://127.0.0.1:3001/mcp --name Tools',
  ],
  notes: [
    'Commands the demo agent understands: echo <text>, hi, book, story [n], slow [seconds],',
    `reject, fail, auth, whoami. Tasks persist in ${DEFAULT_STORE_PATH} across restarts (see docs/deployment.md).`,
    '--mcp: send a data part {"tool": NAME, "arguments": {...}}, or text "NAME {json}" / "NAME text"',
    "(the text goes to the tool's one string argument). Progress streams as WORKING updates;",
    'CancelTask cancels the tool call. Needs @modelcontextprotocol/sdk. See docs/mcp.md.',
  ],
  async run(ctx) {
    const { positionals, values, io, out, signal } = ctx;
    noExtraArgs(positionals, 0);
    const port =
      intFlag(values, 'port', 0, 65535) ?? (io.env.PORT ? Number(io.env.PORT) : undefined);
    const host = stringFlag(values, 'host');
    const mode = serveMode(values);
    if (mode !== undefined && booleanFlag(values, 'inspector')) {
      throw new UsageError(
        `--inspector serves beside the demo agent, not with --${mode}`,
        'run `a2a inspect URL` in another terminal to inspect this agent',
      );
    }
    const logging = logFlags(stringFlag(values, 'log-format'), stringFlag(values, 'log-level'));
    const log = logging && lineLogger(logging.format, logging.level, (l) => io.stderr.write(l));
    if (mode !== undefined) {
      const store = stringFlag(values, 'store') || io.env.A2A_STORE || 'memory';
      const bus = stringFlag(values, 'bus');
      return runMode(mode, ctx, { port: port ?? 8765, host, store, bus, log });
    }
    const grpcPort = intFlag(values, 'grpc-port', 0, 65535);
    const noGrpc = booleanFlag(values, 'no-grpc');
    const store = stringFlag(values, 'store') || io.env.A2A_STORE || DEFAULT_STORE_PATH;
    const inspector = booleanFlag(values, 'inspector')
      ? booleanFlag(values, 'force-inspector')
        ? { allowRemote: true }
        : true
      : undefined;
    if (inspector === true && host !== undefined && !isLoopbackHost(host)) {
      throw new UsageError(
        `--inspector is for development and refused on --host ${host}`,
        'bind 127.0.0.1, or add --force-inspector (its credentials are then open to the network)',
      );
    }
    const demo = await loadDemoAgent();
    let running: Awaited<ReturnType<typeof DemoMain.startDemo>>;
    try {
      running = await demo.startDemo({
        port: port ?? demo.DEFAULT_PORT,
        ...(host !== undefined ? { host } : {}),
        ...(grpcPort !== undefined ? { grpcPort } : {}),
        // gRPC when its packages are installed; asked for by port, it must start.
        ...(noGrpc ? { grpc: false } : grpcPort !== undefined ? { grpc: true } : {}),
        store,
        storeSettings: busSettings(storeSettingsFromEnv(io.env), stringFlag(values, 'bus')),
        logger: null,
        ...(inspector !== undefined ? { inspector } : {}),
        ...(log ? { log } : {}),
      });
    } catch (error) {
      const inUse = demo.portInUse(error, port ?? demo.DEFAULT_PORT);
      if (inUse !== undefined) throw new CliError(EXIT.USAGE, inUse, ''); // one line: what to do
      throw error;
    }
    const { url, grpcUrl, storage } = running;
    if (out.json) {
      const grpc = grpcUrl !== undefined ? { grpc: grpcUrl } : {};
      const page = inspector !== undefined ? { inspector: `${url}/inspector/` } : {};
      out.jsonLine({ url, card: `${url}/.well-known/agent-card.json`, ...grpc, ...page, storage });
    } else {
      const { bold, dim } = out.style;
      out.line(`${bold('a2a-kit demo agent')} is listening on ${bold(url)}`);
      out.line(`  Agent Card  ${url}/.well-known/agent-card.json`);
      out.line(`  JSON-RPC    ${url}/a2a/jsonrpc`);
      out.line(`  HTTP+JSON   ${url}/a2a/rest`);
      if (grpcUrl !== undefined) out.line(`  gRPC        ${grpcUrl}`);
      else if (!noGrpc) {
        out.line(
          dim('  gRPC        off: npm install @grpc/grpc-js @grpc/proto-loader to serve it'),
        );
      }
      if (inspector !== undefined) out.line(`  Inspector   ${url}/inspector/`);
      out.line(`  Tasks       ${storage}`);
      out.line(
        `  Push        signed; webhooks on loopback allowed for this demo only (docs/push.md)`,
      );
      out.line(`  Extended    GetExtendedAgentCard with the token the "auth" command hands out`);
      out.line('');
      out.line('Try, in another terminal:');
      out.line(`  a2a discover ${url}`);
      out.line(`  a2a send ${url} echo hello`);
      out.line(`  a2a send --stream ${url} story 5`);
      out.line(`  a2a demo --url ${url}`);
      out.line(dim('Press Ctrl+C to stop.'));
    }
    await untilAborted(signal);
    await running.close();
    if (!out.json) out.line('stopped.');
    return EXIT.OK;
  },
};

/** True for 127.x.x.x, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/.test(host);
}
