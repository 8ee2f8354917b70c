import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pushReceiveCommand } from '../cli/commands/push-receive.js';
import { Output, type CliIo } from '../cli/io.js';
import { globalOptions, parseFlags } from '../cli/options.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { newTask, statusEvent } from '../testing/store-fixtures.js';
import { testNotifier, waitFor } from '../../test/integration/push-helpers.js';
import { createPushJwksHandler } from './jwks.js';
import { PushSigner } from './signing.js';

/** The signer's JWKS on a loopback port (http is accepted for loopback JWKS URLs). */
async function serveJwks(signer: PushSigner) {
  const handler = createPushJwksHandler(signer);
  const server = createServer((req, res) => {
    void handler({ method: 'GET', url: req.url ?? '/', headers: new Headers() }).then((r) => {
      res.writeHead(r.status, r.headers);
      res.end(r.body as string);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/a2a-push-jwks.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Runs `a2a push receive <args>` in-process; stdout and stderr are collected. */
function start(args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const abort = new AbortController();
  const io: CliIo = {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
    env: {},
    signal: abort.signal,
  };
  const { values, positionals } = parseFlags(args, pushReceiveCommand.flags);
  const global = globalOptions(values);
  const out = new Output(io, global.json);
  const exit = pushReceiveCommand.run({
    positionals,
    values,
    global,
    out,
    io,
    signal: abort.signal,
    errors: {},
  });
  return { stdout, stderr, abort, exit };
}

describe('a2a push receive', () => {
  it('[150,151] acknowledges verified notifications with 2xx, prints them, and reports refused ones', async () => {
    const signer = await PushSigner.generate();
    const jwks = await serveJwks(signer);
    closers.push(() => jwks.close());
    const cli = start(['--port', '0', '--jwks', jwks.url, '--token', 'tok', '--count', '1']);
    closers.push(async () => cli.abort.abort());
    await waitFor(() => cli.stdout.join('').includes('listening'), 5_000, 'the listener');
    const url = /on (http:\/\/\S+)/.exec(cli.stdout.join(''))?.[1] ?? '';

    const store = new MemoryTaskStore();
    const scope = { tenant: '', owner: '' };
    const task = newTask({});
    await store.create(scope, task);
    await store.putPushConfig(scope, { taskId: task.id, id: 'bad', url, token: 'wrong' });
    await store.putPushConfig(scope, { taskId: task.id, id: 'good', url, token: 'tok' });
    const { notifier, outcomes } = testNotifier({ store, signer });
    closers.push(() => notifier.close());
    const working = statusEvent(task, 'TASK_STATE_WORKING');
    await store.append(scope, task.id, [working], 1);
    await notifier.notify(scope, task.id, [{ seq: 2, event: working }]);
    await waitFor(() => outcomes.length === 2, 5_000, 'two outcomes');
    expect(outcomes.map((o) => [o.configId, o.outcome, o.status]).sort()).toEqual([
      ['bad', 'failed', 401],
      ['good', 'delivered', 204],
    ]);
    await expect(cli.exit).resolves.toBe(0);
    expect(cli.stdout.join('')).toMatch(
      new RegExp(`✔ signed task ${task.id} status TASK_STATE_WORKING`),
    );
    expect(cli.stderr.join('')).toMatch(/refused BAD_TOKEN/);
  });

  it('prints JSON lines with -o json and warns when nothing is verified', async () => {
    const cli = start(['--port', '0', '-o', 'json', '--count', '1']);
    closers.push(async () => cli.abort.abort());
    await waitFor(() => cli.stdout.length > 0, 5_000, 'the listener');
    const { url } = JSON.parse(cli.stdout[0] ?? '{}') as { url: string };
    expect(cli.stderr.join('')).toMatch(/NOT verified/);
    const event = {
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
    };
    const res = await fetch(url, { method: 'POST', body: JSON.stringify(event) });
    expect(res.status).toBe(204);
    await expect(cli.exit).resolves.toBe(0);
    expect(JSON.parse(cli.stdout[1] ?? '{}')).toEqual({ taskId: 't', event });
  });
});
