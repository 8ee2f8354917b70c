/** `a2a push receive`: a local webhook that verifies push notifications and prints them. */
import type { StreamResponse } from '../../core/schemas/index.js';
import { receivePushNotifications, type PushReceiverServer } from '../../push/receive-server.js';
import type { VerifiedPush } from '../../push/receiver.js';
import type { Command } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { intFlag, stringFlag, booleanFlag } from '../options.js';
import { noExtraArgs } from '../task-helpers.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** One line about an event: its kind and what changed. */
function describe(event: StreamResponse): string {
  if ('statusUpdate' in event) return `status ${event.statusUpdate.status.state}`;
  if ('artifactUpdate' in event) {
    const { artifact, append, lastChunk } = event.artifactUpdate;
    const text = artifact.parts.map((p) => p.text ?? '').join('');
    const flags = [append ? 'append' : '', lastChunk ? 'last' : ''].filter(Boolean).join(',');
    return `artifact ${artifact.artifactId}${flags ? ` (${flags})` : ''} ${JSON.stringify(text)}`;
  }
  if ('task' in event) return `task ${event.task.status.state}`;
  return `message ${event.message.role}`;
}

/** Default port of the webhook: apart from the demo's 8765 (HTTP) and 8766 (gRPC); README "Ports". */
export const PUSH_RECEIVE_PORT = 8780;

/** The `push receive` verb. */
export const pushReceiveCommand: Command = {
  name: 'push receive',
  summary: 'run a local webhook that verifies push notifications and prints them',
  usage: ['push receive [--port N] [--host H] [--path P] [--jwks URL] [--token T] [--count N]'],
  flags: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    path: { type: 'string' },
    jwks: { type: 'string' },
    token: { type: 'string' },
    issuer: { type: 'string' },
    count: { type: 'string' },
    insecure: { type: 'boolean' },
  },
  flagHelp: [
    ['-p, --port N', `port to listen on (default ${PUSH_RECEIVE_PORT}; 0 = any free port)`],
    ['--host H', 'interface to bind (default 127.0.0.1)'],
    ['--path P', 'accept deliveries only on this path (default any)'],
    ['--jwks URL', "the agent's push keys (…/.well-known/a2a-push-jwks.json): check signatures"],
    ['--token T', 'require this X-A2A-Notification-Token (the config token)'],
    ['--issuer URL', 'require this signature issuer (the agent URL)'],
    ['--count N', 'exit after N verified notifications'],
    ['--insecure', 'allow an http:// JWKS URL on a host other than loopback'],
  ],
  examples: [
    'push receive --jwks http://127.0.0.1:8765/.well-known/a2a-push-jwks.json --token s3cret',
    'push receive --port 0 --token s3cret -o json',
  ],
  notes: [
    'Register the printed URL as a push config url (with --token as its token). Refused',
    'deliveries are reported on stderr with the reason; the agent sees 401/400/409.',
    'Without --jwks and --token nothing is verified: anyone can post.',
  ],
  async run({ positionals, values, out, signal }) {
    noExtraArgs(positionals, 0);
    const jwks = stringFlag(values, 'jwks');
    const token = stringFlag(values, 'token');
    const count = intFlag(values, 'count', 1, 1_000_000);
    const path = stringFlag(values, 'path');
    const issuer = stringFlag(values, 'issuer');
    const insecure = booleanFlag(values, 'insecure') || (jwks !== undefined && isLoopback(jwks));
    if (jwks === undefined && token === undefined) {
      out.error(
        out.errStyle.yellow('warning: no --jwks or --token: notifications are NOT verified'),
      );
    }
    let seen = 0;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const onEvent = (push: VerifiedPush) => {
      seen++;
      if (out.json) out.jsonLine({ taskId: push.taskId, event: push.event, claims: push.claims });
      else {
        const mark = push.claims ? out.style.green('✔ signed') : out.style.dim('unsigned');
        out.line(`${new Date().toISOString()} ${mark} task ${push.taskId} ${describe(push.event)}`);
      }
      // After this handler returns the webhook answers 2xx; stop once that reply is out.
      if (count !== undefined && seen >= count) setTimeout(done, 50);
    };
    const port = intFlag(values, 'port', 0, 65535) ?? PUSH_RECEIVE_PORT;
    let server: PushReceiverServer;
    try {
      server = await receivePushNotifications({
        port,
        host: stringFlag(values, 'host') ?? '127.0.0.1',
        ...(path !== undefined ? { path } : {}),
        ...(jwks !== undefined ? { jwks, allowInsecure: insecure } : {}),
        ...(token !== undefined ? { token } : {}),
        ...(issuer !== undefined ? { issuer } : {}),
        allowUnauthenticated: true,
        onEvent,
        onReject: (error) =>
          out.error(`${out.errStyle.red('✘ refused')} ${error.reason}: ${error.message}`),
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EADDRINUSE') {
        throw new CliError(
          EXIT.USAGE,
          `port ${port} is in use: pick another with --port N (0 = any free port)`,
          '', // one line: the message says what to do
        );
      }
      throw error;
    }
    const url = `${server.url}${path ?? '/'}`;
    if (out.json) out.jsonLine({ url });
    else out.line(`listening for push notifications on ${out.style.bold(url)} (Ctrl+C to stop)`);
    signal.addEventListener('abort', () => done(), { once: true });
    if (signal.aborted) done();
    await finished;
    await server.close();
    return EXIT.OK;
  },
};

function isLoopback(url: string): boolean {
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}
