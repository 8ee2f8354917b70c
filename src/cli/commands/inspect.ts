/** `a2a inspect [URL]`: the web inspector on 127.0.0.1 (docs/inspector.md); opens a browser only with --open. */
import { spawn } from 'node:child_process';
import { createInspector } from '../../inspector/handler.js';
import { serveHandler, type HandlerServer } from '../../node/serve-handler.js';
import { clientTlsPem, tlsClientFetch } from '../../node/tls-fetch.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { booleanFlag, intFlag, stringFlag } from '../options.js';
import { noExtraArgs } from '../task-helpers.js';
import { untilAborted } from './serve.js';

/** Default port of the inspector: apart from the demo (8765/8766) and `push receive` (8780). */
export const INSPECT_PORT = 8790;

/** Opens `url` in the desktop's browser, without waiting for it. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined); // no browser here: the URL is printed anyway
  child.unref();
}

/** The `inspect` verb. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'open a web inspector for any A2A agent (card, chat, tasks, wire, push, auth)',
  usage: ['inspect [URL] [--port N] [--open] [--cert FILE --key FILE] [--cacert FILE]'],
  flags: {
    port: { type: 'string', short: 'p' },
    open: { type: 'boolean' },
    cert: { type: 'string' },
    key: { type: 'string' },
    cacert: { type: 'string' },
  },
  flagHelp: [
    ['-p, --port N', `port on 127.0.0.1 (default ${INSPECT_PORT}; 0 = any free port)`],
    ['--open', 'open the page in your browser'],
    ['--cert FILE', 'client certificate (PEM) for agents that want mutual TLS'],
    ['--key FILE', 'its private key (PEM)'],
    ['--cacert FILE', "CA (PEM) to trust for the agent's server certificate"],
  ],
  examples: [
    'inspect',
    `inspect ${EXAMPLE_URL} --open`,
    'inspect https://agent.example.com --port 0',
  ],
  notes: [
    'Listens on 127.0.0.1 only. Credentials you enter stay in this process, never in the browser.',
    'gRPC calls go through this process too. See docs/inspector.md.',
  ],
  async run({ positionals, values, out, signal }) {
    noExtraArgs(positionals, 1);
    const target = positionals[0];
    if (target !== undefined && !/^https?:\/\//i.test(target)) {
      throw new UsageError(`"${target}" is not an http(s) URL`, `e.g. a2a inspect ${EXAMPLE_URL}`);
    }
    const port = intFlag(values, 'port', 0, 65535) ?? INSPECT_PORT;
    const files = {
      cert: stringFlag(values, 'cert'),
      key: stringFlag(values, 'key'),
      ca: stringFlag(values, 'cacert'),
    };
    if ((files.cert === undefined) !== (files.key === undefined)) {
      throw new UsageError('--cert and --key go together', 'give both, or neither');
    }
    let inspector: ReturnType<typeof createInspector>;
    try {
      inspector = createInspector({
        ...(target !== undefined ? { target } : {}),
        tls: { connect: tlsClientFetch, pem: clientTlsPem, files },
      });
    } catch (error) {
      throw new UsageError((error as Error).message, 'check the --cert, --key and --cacert files');
    }
    let server: HandlerServer;
    try {
      server = await serveHandler((request) => inspector.handle(request), {
        port,
        host: '127.0.0.1',
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EADDRINUSE') {
        throw new CliError(
          EXIT.USAGE,
          `port ${port} is in use: pick another with --port N (0 = any free port)`,
          '',
        );
      }
      throw error;
    }
    const url = `${server.url}/`;
    if (out.json) out.jsonLine({ url, ...(target !== undefined ? { target } : {}) });
    else {
      out.line(
        `${out.style.bold('a2a-kit inspector')} on ${out.style.bold(url)}${target ? ` (inspecting ${target})` : ''}`,
      );
      out.line(out.style.dim('Press Ctrl+C to stop.'));
    }
    if (booleanFlag(values, 'open')) openBrowser(url);
    await untilAborted(signal);
    await server.close();
    if (!out.json) out.line('stopped.');
    return EXIT.OK;
  },
};
