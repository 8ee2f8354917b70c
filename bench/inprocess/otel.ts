/**
 * The cost of a2a-kit/otel, in process (no sockets, so nothing hides it): CPU time per echo task
 * sent through the HTTP handler (JSON-RPC SendMessage) with no telemetry, with a2a-kit/otel
 * wired in but no SDK registered, and with the real SDK recording every span and metric to
 * memory; and the operation middleware alone, a pass-through one next to the otel one with no
 * SDK (the no-op path).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { a2aTelemetry, type A2ATelemetry } from '../../src/otel/index.js';
import { A2AServer, MemoryEventBus, MemoryTaskStore } from '../../src/server/index.js';
import { serveRpc } from '../ipc.js';
import { sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';

/** CPU µs per call of each variant. */
export interface OtelResult {
  variant: string;
  cpuMicros: number;
}

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const recording = a2aTelemetry({
  tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  meterProvider: new MeterProvider({ readers: [new Reader()] }),
  propagator: new W3CTraceContextPropagator(),
});
const unregistered = a2aTelemetry(); // global providers: nothing registered in this process

function handlerWith(otel: A2ATelemetry | undefined) {
  if (otel === undefined) {
    return createA2AHandler(new A2AServer({ agent: kitEcho, logger: null }));
  }
  const server = new A2AServer({
    agent: otel.agent(kitEcho),
    store: otel.store(new MemoryTaskStore()),
    bus: otel.bus(new MemoryEventBus()),
    logger: null,
  });
  return createA2AHandler(server, { middleware: [otel.middleware] });
}

const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};
function request(): HttpRequest {
  const { path, body } = sendRequest('jsonrpc', false, nextMessageId(), 'hello');
  return { method: 'POST', url: path, headers: { get: (name) => HEADERS[name] ?? null }, body };
}

async function check(response: HttpResponse): Promise<void> {
  if (typeof response.body !== 'string' || !response.body.includes('TASK_STATE_COMPLETED')) {
    throw new Error('not a completed echo task');
  }
}

const plain = handlerWith(undefined);
const noSdk = handlerWith(unregistered);
const sdk = handlerWith(recording);
const passThrough: OperationMiddleware = (_o, _p, _c, next) => next();
const next = () => Promise.resolve(undefined);
const call = { protocolBinding: 'JSONRPC' };

const VARIANTS: Record<string, () => Promise<unknown>> = {
  'send, no telemetry': async () => check(await plain(request())),
  'send, a2a-kit/otel, no SDK registered': async () => check(await noSdk(request())),
  'send, a2a-kit/otel, SDK to memory': async () => {
    await check(await sdk(request()));
    // An exporter sends and forgets; keeping 10,000 spans alive made GC a third of the cost.
    if (exporter.getFinishedSpans().length > 1_000) exporter.reset();
  },
  'middleware alone, pass-through': () => passThrough('GetTask', {}, call, next),
  'middleware alone, otel, no SDK registered': () =>
    unregistered.middleware('GetTask', {}, call, next),
};

async function run(variant: string, total: number, concurrency: number): Promise<number> {
  const fn = VARIANTS[variant];
  if (fn === undefined) throw new Error(`unknown variant ${variant}`);
  let n = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (n++ < total) await fn();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / total;
}

serveRpc({
  variants: () => Object.keys(VARIANTS),
  measure: async (arg: { variant: string; calls: number; concurrency: number }) => {
    // The middleware alone is ~100x cheaper than a send: more calls for a readable figure.
    const calls = arg.variant.startsWith('middleware') ? arg.calls * 100 : arg.calls;
    await run(arg.variant, Math.ceil(calls / 4), arg.concurrency); // warm-up
    return { variant: arg.variant, cpuMicros: await run(arg.variant, calls, arg.concurrency) };
  },
});
