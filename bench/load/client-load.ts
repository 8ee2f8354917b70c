/**
 * The client's own cost per call: the same blocking SendMessage sent one at a time by raw
 * `fetch`, by a raw `request` on the dispatcher under fetch (what a2a-kit's HTTP bindings send
 * through on Node: src/transport/http-send.ts), by a2a-kit's A2AClient and by @a2a-js/sdk's
 * client, measuring the CPU time this process spends per call (the server's time is the same
 * for all four).
 */
import { ClientFactory } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
import { A2AClient } from '../../src/client/index.js';
import { globalDispatcher } from '../../src/transport/http-send.js';
import { userMessage } from '../../src/core/parts.js';
import { A2A_HEADERS, jsonrpcBody } from './requests.js';
import { nextMessageId } from './sse-load.js';

/** Who sends the calls. */
export type ClientKind = 'fetch' | 'dispatcher' | 'a2a-kit' | 'a2a-js';

/** One client run. */
export interface ClientLoadSpec {
  url: string;
  kind: ClientKind;
  durationSec: number;
}

/** What a client run measured. */
export interface ClientLoadResult {
  calls: number;
  /** CPU time of this process per call, µs. */
  cpuPerCall: number;
  /** Wall time per call, µs. */
  wallPerCall: number;
}

type Send = () => Promise<void>;

const senders = new Map<string, Send>();

async function sender(url: string, kind: ClientKind): Promise<Send> {
  const key = `${kind} ${url}`;
  const known = senders.get(key);
  if (known !== undefined) return known;
  let send: Send;
  if (kind === 'fetch') {
    send = async () => {
      const res = await fetch(`${url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: A2A_HEADERS,
        body: jsonrpcBody('SendMessage', nextMessageId(), 'hello'),
      });
      const reply = (await res.json()) as { result?: unknown };
      if (reply.result === undefined) throw new Error('SendMessage failed');
    };
  } else if (kind === 'dispatcher') {
    new Headers(); // Node creates the global dispatcher as it loads its fetch
    const dispatcher = globalDispatcher();
    if (dispatcher === undefined) throw new Error('this runtime has no undici dispatcher');
    const origin = new URL(url).origin;
    send = async () => {
      const res = await dispatcher.request({
        origin,
        path: '/a2a/jsonrpc',
        method: 'POST',
        headers: A2A_HEADERS,
        body: jsonrpcBody('SendMessage', nextMessageId(), 'hello'),
      });
      const reply = JSON.parse(await res.body.text()) as { result?: unknown };
      if (reply.result === undefined) throw new Error('SendMessage failed');
    };
  } else if (kind === 'a2a-kit') {
    const client = await A2AClient.connect(url, { preferredBinding: 'JSONRPC' });
    // The same message ids as the other two senders (a counter), not a fresh UUID per call.
    send = async () => {
      await client.sendMessage({ message: userMessage('hello', { messageId: nextMessageId() }) });
    };
  } else {
    const client = await new ClientFactory().createFromUrl(url);
    send = async () => {
      await client.sendMessage(a2aJsHelloRequest());
    };
  }
  senders.set(key, send);
  return send;
}

/** Sends calls one after another for `durationSec`. */
export async function clientLoad(spec: ClientLoadSpec): Promise<ClientLoadResult> {
  const send = await sender(spec.url, spec.kind);
  await send(); // connection and lazy setup outside the measurement
  const cpu0 = process.cpuUsage();
  const begin = performance.now();
  const deadline = begin + spec.durationSec * 1000;
  let calls = 0;
  while (performance.now() < deadline) {
    await send();
    calls++;
  }
  const wall = (performance.now() - begin) * 1000;
  const cpu = process.cpuUsage(cpu0);
  return { calls, cpuPerCall: (cpu.user + cpu.system) / calls, wallPerCall: wall / calls };
}

/** The @a2a-js/sdk client's form of a one-part "hello" user message with a fresh messageId. */
export function a2aJsHelloRequest() {
  return {
    tenant: '',
    message: {
      messageId: nextMessageId(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: 'hello' },
          metadata: undefined,
          filename: '',
          mediaType: '',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}
