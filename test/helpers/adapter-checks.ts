/**
 * Shared by the framework adapter tests (src/adapters/*): a small agent that answers and streams,
 * and the checks every adapter must pass over real HTTP — the card's interface URLs, a JSON-RPC
 * send, an HTTP+JSON send, and an SSE stream to its final event.
 */
import { expect } from 'vitest';

export { echoAgent, releaseHeld } from './echo-agent.js';

export const V = { 'A2A-Version': '1.0' };

const message = (text: string) => ({
  messageId: crypto.randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text }],
});

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The card at `base` (`http://127.0.0.1:1234/agents/x`): its interface URLs, in order. */
export async function interfaceUrls(
  base: string,
  headers: Record<string, string> = {},
  fetchFn: Fetch = fetch,
): Promise<string[]> {
  const res = await fetchFn(`${base}/.well-known/agent-card.json`, { headers });
  expect(res.status).toBe(200);
  const card = (await res.json()) as { supportedInterfaces: { url: string }[] };
  return card.supportedInterfaces.map((i) => i.url);
}

/** SendMessage over JSON-RPC at `base`; returns the task's final state. */
export async function jsonRpcSend(
  base: string,
  contentType = 'application/json',
  fetchFn: Fetch = fetch,
): Promise<string> {
  const res = await fetchFn(`${base}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...V, 'content-type': contentType },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message('hi') },
    }),
  });
  expect(res.status).toBe(200);
  const reply = (await res.json()) as { result?: { task?: { status: { state: string } } } };
  return reply.result?.task?.status.state ?? JSON.stringify(reply);
}

/** SendMessage over HTTP+JSON at `base`; returns the task's final state. */
export async function restSend(base: string, fetchFn: Fetch = fetch): Promise<string> {
  const res = await fetchFn(`${base}/a2a/rest/message:send`, {
    method: 'POST',
    headers: { ...V, 'content-type': 'application/a2a+json' },
    body: JSON.stringify({ message: message('hi') }),
  });
  expect(res.status).toBe(200);
  const reply = (await res.json()) as { task?: { status: { state: string } } };
  return reply.task?.status.state ?? JSON.stringify(reply);
}

/** SendStreamingMessage over JSON-RPC at `base`: the data lines of the SSE reply, in order. */
export async function jsonRpcStream(base: string, fetchFn: Fetch = fetch): Promise<string[]> {
  const res = await fetchFn(`${base}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...V, 'content-type': 'application/a2a+json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'SendStreamingMessage',
      params: { message: message('stream me') },
    }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
}

/** The checks of a stream: several events, the artifact, and a completed last one. */
export function expectCompletedStream(events: readonly string[]): void {
  expect(events.length).toBeGreaterThanOrEqual(3);
  expect(events.join('\n')).toContain('You said: stream me');
  expect(events.at(-1)).toContain('TASK_STATE_COMPLETED');
}

/** Opens a `hold` stream at `base`, reads its first event, then drops the connection. */
export async function openAndDropStream(base: string, fetchFn: Fetch = fetch): Promise<void> {
  const controller = new AbortController();
  const res = await fetchFn(`${base}/a2a/jsonrpc`, {
    method: 'POST',
    signal: controller.signal,
    headers: { ...V, 'content-type': 'application/a2a+json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'SendStreamingMessage',
      params: { message: message('hold') },
    }),
  });
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  await reader?.read();
  controller.abort();
}

/** Waits (polling, at most 5 s) until `signal` is aborted; fails otherwise. */
export async function untilAborted(signal: () => AbortSignal | undefined): Promise<void> {
  for (const end = Date.now() + 5000; Date.now() < end;) {
    if (signal()?.aborted === true) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the request signal was not aborted after the client went away');
}
