/**
 * The client's CPU per call, A/B in one process (issue 16 point 6), for a loaded machine where
 * the `client` scenario's separate runs scatter too much: blocking SendMessage to one a2a-kit
 * server (its own child process), one call at a time, sent by raw fetch, by this build's
 * A2AClient, by the A2AClient of a base build, and by @a2a-js/sdk's client, in interleaved
 * rounds (the order rotates), CPU time of this process per call; medians and the per-round
 * ratios. Run: `node bench/build.mjs && node dist/bench-run/bench/inprocess/client-ab.js
 * [--base=/tmp/base-2675199] [--calls=600] [--rounds=11]` (the base checkout built with
 * `node bench/build.mjs` there).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientFactory } from '@a2a-js/sdk/client';
import type * as ClientModule from '../../src/client/index.js';
import type * as PartsModule from '../../src/core/parts.js';
import { a2aJsHelloRequest } from '../load/client-load.js';
import { A2A_HEADERS, jsonrpcBody } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { Child } from '../proc.js';

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const here = dirname(fileURLToPath(import.meta.url));
const calls = Number(arg('calls') ?? 600);
const rounds = Number(arg('rounds') ?? 11);
const base = arg('base');

type Send = () => Promise<unknown>;

async function kitSender(dist: string, url: string): Promise<Send> {
  const { A2AClient } = (await import(join(dist, 'src/client/index.js'))) as typeof ClientModule;
  const { userMessage } = (await import(join(dist, 'src/core/parts.js'))) as typeof PartsModule;
  const client = await A2AClient.connect(url, { preferredBinding: 'JSONRPC' });
  return () =>
    client.sendMessage({ message: userMessage('hello', { messageId: nextMessageId() }) });
}

const server = await Child.start({ name: 'a2a-kit', script: join(here, '../servers/kit.js') });
try {
  const url = `http://127.0.0.1:${server.port}`;
  const a2ajs = await new ClientFactory().createFromUrl(url);
  const senders: Record<string, Send> = {
    'raw fetch': async () => {
      const res = await fetch(`${url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: A2A_HEADERS,
        body: jsonrpcBody('SendMessage', nextMessageId(), 'hello'),
      });
      if (((await res.json()) as { result?: unknown }).result === undefined)
        throw new Error('failed');
    },
    'a2a-kit A2AClient': await kitSender(resolve(here, '../..'), url),
    ...(base ? { 'a2a-kit base': await kitSender(join(base, 'dist/bench-run'), url) } : {}),
    '@a2a-js/sdk client': () => a2ajs.sendMessage(a2aJsHelloRequest()),
  };
  const names = Object.keys(senders);
  const samples = new Map<string, number[]>(names.map((n) => [n, []]));
  for (const name of names) for (let i = 0; i < 300; i++) await senders[name]?.();
  for (let round = 0; round < rounds; round++) {
    for (const name of names.map((_, i) => names[(i + round) % names.length] as string)) {
      const send = senders[name] as Send;
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < calls; i++) await send();
      const cpu = process.cpuUsage(cpu0);
      samples.get(name)?.push((cpu.user + cpu.system) / calls);
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1] ?? 0;
  const of = (name: string) => samples.get(name) ?? [];
  const paired = (a: string, b: string) => median(of(a).map((x, i) => x / (of(b)[i] ?? x)));
  console.log('sender                CPU µs/call   per-round ratio to @a2a-js/sdk');
  for (const name of names) {
    const ratio = paired(name, '@a2a-js/sdk client').toFixed(2);
    console.log(`${name.padEnd(20)} ${median(of(name)).toFixed(0).padStart(8)}   ${ratio}×`);
  }
  if (base) {
    console.log(
      `a2a-kit / base, per round: ${paired('a2a-kit A2AClient', 'a2a-kit base').toFixed(2)}×`,
    );
  }
} finally {
  await server.stop();
}
