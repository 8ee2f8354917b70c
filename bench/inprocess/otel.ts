/**
 * The cost of a2a-kit/otel, in process (no sockets, so nothing hides it): CPU time per echo task
 * sent through the HTTP handler (JSON-RPC SendMessage) with no telemetry, with a2a-kit/otel
 * wired in but no SDK registered, and with the real SDK registered the way a Node user does it
 * (global tracer and meter providers, W3C trace context and baggage propagators, the
 * AsyncLocalStorage context manager) recording every span and metric to memory, once with the
 * BatchSpanProcessor (what NodeSDK and production setups use) and once with the
 * SimpleSpanProcessor (one export per span: tests and development). Before each measurement
 * the variant's setup registers its SDK or unregisters everything: the variants without an
 * SDK run with no context manager, so they do not pay AsyncLocalStorage's promise hooks that
 * an earlier SDK variant switched on. One more variant shows what the context manager alone
 * costs a server with no telemetry, and the operation middleware is measured alone too (a
 * pass-through one next to the otel one with no SDK: the no-op path).
 */
import { ROOT_CONTEXT, SpanKind, context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ExportResult } from '@opentelemetry/core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { a2aTelemetry } from '../../src/otel/index.js';
import { A2AServer, MemoryEventBus, MemoryTaskStore } from '../../src/server/index.js';
import { childArg, serveRpc } from '../ipc.js';
import { VARIANT, type OtelResult } from './otel-variants.js';
import { Child } from '../proc.js';
import { toNodeListener } from '../../src/node/index.js';
import { sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const contextManager = new AsyncLocalStorageContextManager();

/**
 * The in-memory exporter, counting and dropping what it was given once it has it, as a real
 * exporter sends and forgets (keeping 10,000 spans alive made GC a third of the cost).
 */
class DroppingExporter extends InMemorySpanExporter {
  exported = 0;
  override export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    super.export(spans, done);
    this.exported += this.getFinishedSpans().length;
    this.reset();
  }
}

/** One SDK setup: providers recording to memory. */
interface Sdk {
  readonly exporter: DroppingExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Which of the two is registered (both, but for the breakdown variants). */
  readonly signals: 'both' | 'traces' | 'metrics';
}

function sdk(
  processor: (exporter: InMemorySpanExporter) => SpanProcessor,
  signals: Sdk['signals'] = 'both',
): Sdk {
  const exporter = new DroppingExporter();
  return {
    exporter,
    tracerProvider: new BasicTracerProvider({ spanProcessors: [processor(exporter)] }),
    meterProvider: new MeterProvider({ readers: [new Reader()] }),
    signals,
  };
}

/** Registers `setup` globally (nothing but the context manager for 'context'), or nothing. */
function register(setup: Sdk | 'context' | undefined): void {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable(); // also disables the manager's AsyncLocalStorage: no promise hooks
  if (setup === undefined) return;
  context.setGlobalContextManager(contextManager.enable());
  // The manager's AsyncLocalStorage switches Node's promise hooks on at its first use (any
  // instrumentation's first `context.with`); the SDK variants do that on their first send.
  if (setup === 'context') return void context.with(ROOT_CONTEXT, () => undefined);
  if (setup.signals !== 'metrics') trace.setGlobalTracerProvider(setup.tracerProvider);
  if (setup.signals !== 'traces') metrics.setGlobalMeterProvider(setup.meterProvider);
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
}

/** A server with no telemetry, or one wired with a2a-kit/otel on the global providers. */
function handler(instrumented: boolean) {
  if (!instrumented) return createA2AHandler(new A2AServer({ agent: kitEcho, logger: null }));
  const otel = a2aTelemetry();
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

/** One variant: what it registers, and one call. */
interface Variant {
  readonly setup: Sdk | 'context' | undefined;
  readonly call: () => Promise<unknown>;
  /**
   * Sends give the event loop a turn after each call, as requests arriving on sockets do: with
   * only microtasks the batch processor's export timer never ran, its queue filled up and it
   * dropped three spans in four (cheap, and not what a server does).
   */
  readonly yields?: boolean;
  /** Over HTTP: sends `total` requests from the load process instead of calling `call`. */
  readonly all?: (total: number, concurrency: number) => Promise<void>;
}

function send(setup: Sdk | 'context' | undefined, instrumented: boolean): Variant {
  const serve = handler(instrumented);
  return { setup, yields: true, call: async () => check(await serve(request())) };
}

let load: Promise<Child> | undefined;

/** The same server behind node:http on loopback, its requests sent by another process. */
function overHttp(setup: Sdk | undefined, instrumented: boolean): Variant {
  const server = createServer(toNodeListener(handler(instrumented)));
  const port = new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    setup,
    call: () => Promise.reject(new Error('over HTTP: sent by the load process')),
    all: async (total, concurrency) => {
      // On the load generator's core when the bench pins (a child inherits this one's core).
      load ??= Child.start({
        name: 'otel load',
        script: fileURLToPath(new URL('./otel-load.js', import.meta.url)),
        cpu: childArg('load-cpu'),
      });
      await (await load).call('send', { port: await port, total, concurrency });
    },
  };
}

const passThrough: OperationMiddleware = (_o, _p, _c, next) => next();
const next = () => Promise.resolve(undefined);
const call = { protocolBinding: 'JSONRPC' };

/**
 * The SDK's own work for one send, with none of a2a-kit's code: the two spans a traced send
 * records (a SERVER span and an INTERNAL child with 7 and 5 attributes, each started with
 * those the middleware and the agent wrapper give and ended with those they learn, the one
 * append event on the first), open for the length of a send with no telemetry, with the
 * AsyncLocalStorage context manager in use. No instrumentation can cost less than this: it is
 * the bound of the 15 % target.
 */
function floor(): Variant {
  const setup = sdk((exporter) => new BatchSpanProcessor(exporter), 'traces');
  const serve = handler(false);
  const tracer = setup.tracerProvider.getTracer('floor');
  return {
    setup,
    yields: true,
    call: async () => {
      const id = nextMessageId();
      const server = tracer.startSpan(
        'SendMessage',
        {
          kind: SpanKind.SERVER,
          attributes: {
            'a2a.method.name': 'SendMessage',
            'a2a.protocol.version': '1.0',
            'a2a.protocol.binding': 'JSONRPC',
            'a2a.message.id': id,
          },
        },
        ROOT_CONTEXT,
      );
      const execute = tracer.startSpan(
        'a2a.agent.execute',
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.agent.name': 'echo',
            'a2a.task.id': id,
            'gen_ai.conversation.id': id,
            'a2a.message.id': id,
          },
        },
        trace.setSpan(ROOT_CONTEXT, server),
      );
      await check(await serve(request()));
      execute.setAttribute('a2a.task.state', 'TASK_STATE_COMPLETED');
      execute.end();
      server.addEvent('a2a.store.append', {
        'a2a.store.events': 3,
        'a2a.task.state': 'TASK_STATE_COMPLETED',
      });
      server.setAttribute('a2a.task.id', id);
      server.setAttribute('gen_ai.conversation.id', id);
      server.setAttribute('a2a.task.state', 'TASK_STATE_COMPLETED');
      server.end();
    },
  };
}

/**
 * Each variant made on first use, so that a process measuring one variant builds only its
 * server (the over-HTTP ones listen) and its SDK.
 */
const VARIANTS: Record<string, () => Variant> = {
  [VARIANT.plain]: () => send(undefined, false),
  [VARIANT.noSdk]: () => send(undefined, true),
  [VARIANT.batch]: () =>
    send(
      sdk((exporter) => new BatchSpanProcessor(exporter)),
      true,
    ),
  [VARIANT.simple]: () =>
    send(
      sdk((exporter) => new SimpleSpanProcessor(exporter)),
      true,
    ),
  [VARIANT.contextOnly]: () => send('context', false),
  [VARIANT.floor]: floor,
  [VARIANT.tracesOnly]: () =>
    send(
      sdk((exporter) => new BatchSpanProcessor(exporter), 'traces'),
      true,
    ),
  [VARIANT.metricsOnly]: () =>
    send(
      sdk((exporter) => new BatchSpanProcessor(exporter), 'metrics'),
      true,
    ),
  [VARIANT.httpPlain]: () => overHttp(undefined, false),
  [VARIANT.httpNoSdk]: () => overHttp(undefined, true),
  [VARIANT.httpBatch]: () =>
    overHttp(
      sdk((exporter) => new BatchSpanProcessor(exporter)),
      true,
    ),
  [VARIANT.httpSimple]: () =>
    overHttp(
      sdk((exporter) => new SimpleSpanProcessor(exporter)),
      true,
    ),
  [VARIANT.passThrough]: () => ({
    setup: undefined,
    call: () => passThrough('GetTask', {}, call, next),
  }),
  [VARIANT.otelMiddleware]: () => {
    const otelMiddleware = a2aTelemetry().middleware;
    return { setup: undefined, call: () => otelMiddleware('GetTask', {}, call, next) };
  },
};
const made = new Map<string, Variant>();

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function run(variant: Variant, total: number, concurrency: number): Promise<number> {
  let n = 0;
  const start = process.cpuUsage();
  if (variant.all) await variant.all(total, concurrency);
  else {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (n++ < total) {
          await variant.call();
          if (variant.yields === true) await turn();
        }
      }),
    );
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / total;
}

/** Lets the batch processor's pending export and timers run before the next variant. */
async function settle(setup: Sdk | 'context' | undefined): Promise<void> {
  if (typeof setup !== 'object') return;
  await setup.tracerProvider.forceFlush();
}

/** Registers the variant's setup, warms up, then measures `calls` calls. */
async function measure(name: string, calls: number, warmUp: number, concurrency: number) {
  const make = VARIANTS[name];
  if (make === undefined) throw new Error(`unknown variant ${name}`);
  let variant = made.get(name);
  if (variant === undefined) made.set(name, (variant = make()));
  register(variant.setup);
  await run(variant, warmUp, concurrency);
  await settle(variant.setup);
  const setup = variant.setup;
  const before = typeof setup === 'object' ? setup.exporter.exported : 0;
  const cpuMicros = await run(variant, calls, concurrency);
  await settle(setup);
  const spans = typeof setup === 'object' ? setup.exporter.exported - before : 0;
  register(undefined);
  return { variant: name, cpuMicros, spansPerCall: spans / calls } satisfies OtelResult;
}

if (process.send === undefined) {
  // By hand, one variant (for `valgrind --tool=callgrind`, whose instruction counts do not
  // depend on the machine's load): `node otel.js '--variant=send, no telemetry' --calls=2000`.
  const flag = (name: string) =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const calls = Number(flag('calls') ?? 2000);
  const result = await measure(flag('variant') ?? VARIANT.plain, calls, 500, 50);
  console.log(JSON.stringify(result));
  process.exit(0); // the over-HTTP variants' servers listen
} else {
  serveRpc({
    variants: () => Object.keys(VARIANTS),
    measure: (arg: { variant: string; calls: number; concurrency: number }) => {
      // The middleware alone is ~100x cheaper than a send: more calls for a readable figure.
      const calls = arg.variant.startsWith('middleware') ? arg.calls * 100 : arg.calls;
      return measure(arg.variant, calls, Math.ceil(calls / 4), arg.concurrency);
    },
  });
}
