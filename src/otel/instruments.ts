/**
 * The metric instruments of a2a-kit (names in names.ts), created once per meter provider.
 * Durations are histograms in seconds, as OpenTelemetry's conventions measure them. Counts
 * (requests, calls, active tasks and streams, task outcomes) are tallies kept here and reported
 * through asynchronous instruments when the metric reader collects: counting a request is one
 * addition, with no SDK work (attribute hashing, a lookup, an accumulation) on the hot path.
 */
import type { Attributes, Counter, Histogram, Meter, ObservableResult } from '@opentelemetry/api';
import { ATTR, METRIC } from './names.js';

/**
 * Label sets kept per instrument (methods × bindings × outcomes is far fewer; this bounds a
 * misuse): with the overflow series, the SDK's default cardinality limit of 2,000 series.
 */
const MAX_LABEL_SETS = 1999;

/** One count and its attributes (shared and frozen, so a histogram can record with them too). */
export class Tally {
  value = 0;
  constructor(readonly attributes: Attributes) {}
}

/** The tallies of one instrument, one per combination of its (up to three) label values. */
export class Tallies {
  private readonly byValues = new Map<string, Map<string, Map<string, Tally>>>();
  private readonly all: Tally[] = [];
  private overflow: Tally | undefined;

  constructor(private readonly keys: readonly string[]) {}

  /** The tally of these label values (in the order of the keys), made on first use. */
  get(a: string, b = '', c = ''): Tally {
    let level1 = this.byValues.get(a);
    if (level1 === undefined) this.byValues.set(a, (level1 = new Map()));
    let level2 = level1.get(b);
    if (level2 === undefined) level1.set(b, (level2 = new Map()));
    let tally = level2.get(c);
    if (tally === undefined) {
      if (this.all.length >= MAX_LABEL_SETS) {
        // As the SDK's own cardinality limit does: one overflow series past the limit.
        return (this.overflow ??= this.add({ 'otel.metric.overflow': true }));
      }
      const attributes: Attributes = {};
      const values = [a, b, c];
      this.keys.forEach((key, i) => (attributes[key] = values[i]));
      level2.set(c, (tally = this.add(Object.freeze(attributes))));
    }
    return tally;
  }

  /** Reports every tally (the asynchronous instrument's callback). */
  readonly observe = (result: ObservableResult): void => {
    for (const tally of this.all) result.observe(tally.value, tally.attributes);
  };

  private add(attributes: Attributes): Tally {
    const tally = new Tally(attributes);
    this.all.push(tally);
    return tally;
  }
}

/** Metric labels of a request or a call. */
const REQUEST_LABELS = [ATTR.method, ATTR.binding, ATTR.outcome] as const;

/** Every instrument, ready to record. */
export class Instruments {
  /** `a2a.server.requests`, by method, binding and outcome (also the duration's attributes). */
  readonly serverRequests = new Tallies(REQUEST_LABELS);
  readonly serverDuration: Histogram;
  readonly clientRequests = new Tallies(REQUEST_LABELS);
  readonly clientDuration: Histogram;
  readonly activeStreams = new Tallies([ATTR.method]);
  readonly activeTasks = new Tallies([ATTR.agentName]);
  readonly taskOutcomes = new Tallies([ATTR.taskState]);
  readonly pushDeliveries: Counter;
  readonly pushDuration: Histogram;
  readonly appendDuration: Histogram;
  readonly busLag: Histogram;

  constructor(meter: Meter) {
    const seconds = { unit: 's' };
    meter
      .createObservableCounter(METRIC.serverRequests, {
        description: 'A2A requests served, by method, binding and outcome',
      })
      .addCallback(this.serverRequests.observe);
    this.serverDuration = meter.createHistogram(METRIC.serverDuration, {
      ...seconds,
      description: 'Time to serve one A2A request (a stream: until it ends)',
    });
    meter
      .createObservableCounter(METRIC.clientRequests, {
        description: 'A2A calls made, by method, binding and outcome',
      })
      .addCallback(this.clientRequests.observe);
    this.clientDuration = meter.createHistogram(METRIC.clientDuration, {
      ...seconds,
      description: 'Time of one A2A call, retries included (a stream: until it is consumed)',
    });
    meter
      .createObservableUpDownCounter(METRIC.activeStreams, {
        description: 'Streams (SendStreamingMessage, SubscribeToTask) open now',
      })
      .addCallback(this.activeStreams.observe);
    meter
      .createObservableUpDownCounter(METRIC.activeTasks, {
        description: 'Agent executions running now',
      })
      .addCallback(this.activeTasks.observe);
    meter
      .createObservableCounter(METRIC.taskOutcomes, {
        description: 'Tasks reaching a terminal or interrupted state, by state',
      })
      .addCallback(this.taskOutcomes.observe);
    this.pushDeliveries = meter.createCounter(METRIC.pushDeliveries, {
      description: 'Push delivery attempts, by outcome (delivered, retried, failed, dropped)',
    });
    this.pushDuration = meter.createHistogram(METRIC.pushDuration, {
      ...seconds,
      description: 'Time of one push delivery attempt',
    });
    this.appendDuration = meter.createHistogram(METRIC.appendDuration, {
      ...seconds,
      description: 'Time of one task store append (events made durable)',
    });
    this.busLag = meter.createHistogram(METRIC.busLag, {
      ...seconds,
      description: 'From publish to delivery of a bus entry to a subscriber (publisher clock)',
    });
  }
}
