/**
 * The a2a-kit server's layers measured in process, without sockets: CPU time per echo task
 * through `A2AServer.sendMessage` alone, through the HTTP handler with the JSON-RPC and
 * HTTP+JSON bindings (parse, validate, limits, serialize), and a streamed send consumed as SSE
 * text. What is left of a request measured over HTTP is node:http and the socket.
 *
 * `allocated` measures the bytes allocated per call instead (issue 16 point 5): one call at a
 * time, in a child started with a young generation large enough to hold them all
 * (`ALLOCATION_FLAGS` of bench/scenarios/layers.ts), so the growth of the heap over the calls is what they allocated; a
 * collection during the calls would hide some, so they are counted and reported.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { A2AServer } from '../../src/server/index.js';
import { serveRpc } from '../ipc.js';
import { sendRequest, type Binding } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

/** CPU µs per call of each layer. */
export interface LayerResult {
  layer: string;
  cpuMicros: number;
}

/** Bytes allocated per call of a layer (the driver's request objects and text included). */
export interface AllocationResult {
  layer: string;
  bytesPerCall: number;
  /** Garbage collections seen while measuring: the figure is only exact when 0. */
  collections: number;
}

const server = new A2AServer({ agent: kitEcho, logger: null });
const handler = createA2AHandler(server);
const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};

function request(binding: Binding, streaming: boolean): HttpRequest {
  const { path, body } = sendRequest(binding, streaming, nextMessageId(), 'hello');
  return { method: 'POST', url: path, headers: { get: (name) => HEADERS[name] ?? null }, body };
}

async function check(response: HttpResponse, frames: number): Promise<void> {
  let text = '';
  if (typeof response.body === 'string') text = response.body;
  else if (response.body) for await (const chunk of response.body) text += chunk;
  if (!text.includes('TASK_STATE_COMPLETED') || text.split('\n\n').length - 1 < frames) {
    throw new Error(`not a completed echo task: ${text.slice(0, 200)}`);
  }
}

const LAYERS: Record<string, (n: number) => Promise<unknown>> = {
  'A2AServer.sendMessage (core, memory store)': async (n) => {
    const reply = await server.sendMessage(echoParams(n), {});
    if (!('task' in reply) || reply.task.status.state !== 'TASK_STATE_COMPLETED') {
      throw new Error('the echo task did not complete');
    }
  },
  'HTTP handler, JSON-RPC SendMessage': async () =>
    check(await handler(request('jsonrpc', false)), 0),
  'HTTP handler, HTTP+JSON SendMessage': async () =>
    check(await handler(request('rest', false)), 0),
  'HTTP handler, JSON-RPC SendStreamingMessage (4 SSE events)': async () =>
    check(await handler(request('jsonrpc', true)), 4),
};

/** Runs `total` calls of a layer, `concurrency` at a time; CPU µs per call. */
async function run(layer: string, total: number, concurrency: number): Promise<number> {
  const call = LAYERS[layer];
  if (call === undefined) throw new Error(`unknown layer ${layer}`);
  let next = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++);
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / total;
}

/** Bytes allocated per call over `total` calls made one at a time (after as many to warm up). */
async function allocated(layer: string, total: number): Promise<AllocationResult> {
  const call = LAYERS[layer];
  if (call === undefined) throw new Error(`unknown layer ${layer}`);
  for (let i = 0; i < total; i++) await call(i);
  (globalThis as { gc?: () => void }).gc?.();
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const before = v8.getHeapStatistics().used_heap_size;
  for (let i = 0; i < total; i++) await call(i);
  const after = v8.getHeapStatistics().used_heap_size;
  // Entries of the collections are delivered after the turn that saw them.
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return { layer, bytesPerCall: (after - before) / total, collections };
}

serveRpc({
  layers: () => Object.keys(LAYERS),
  allocated: (arg: { layer: string; calls: number }) => allocated(arg.layer, arg.calls),
  measure: async (arg: { layer: string; calls: number; concurrency: number }) => {
    await run(arg.layer, Math.ceil(arg.calls / 4), arg.concurrency); // warm-up
    return { layer: arg.layer, cpuMicros: await run(arg.layer, arg.calls, arg.concurrency) };
  },
});
