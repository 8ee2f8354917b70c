/**
 * The metric instruments of a2a-kit (names in names.ts), created once per meter provider.
 * Durations are histograms in seconds, as OpenTelemetry's conventions measure them.
 */
import type { Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import { METRIC } from './names.js';

/** Every instrument, ready to record. */
export class Instruments {
  readonly serverRequests: Counter;
  readonly serverDuration: Histogram;
  readonly clientRequests: Counter;
  readonly clientDuration: Histogram;
  readonly activeStreams: UpDownCounter;
  readonly activeTasks: UpDownCounter;
  readonly taskOutcomes: Counter;
  readonly pushDeliveries: Counter;
  readonly pushDuration: Histogram;
  readonly appendDuration: Histogram;
  readonly busLag: Histogram;

  constructor(meter: Meter) {
    const seconds = { unit: 's' };
    this.serverRequests = meter.createCounter(METRIC.serverRequests, {
      description: 'A2A requests served, by method, binding and outcome',
    });
    this.serverDuration = meter.createHistogram(METRIC.serverDuration, {
      ...seconds,
      description: 'Time to serve one A2A request (a stream: until it ends)',
    });
    this.clientRequests = meter.createCounter(METRIC.clientRequests, {
      description: 'A2A calls made, by method, binding and outcome',
    });
    this.clientDuration = meter.createHistogram(METRIC.clientDuration, {
      ...seconds,
      description: 'Time of one A2A call, retries included (a stream: until it is consumed)',
    });
    this.activeStreams = meter.createUpDownCounter(METRIC.activeStreams, {
      description: 'Streams (SendStreamingMessage, SubscribeToTask) open now',
    });
    this.activeTasks = meter.createUpDownCounter(METRIC.activeTasks, {
      description: 'Agent executions running now',
    });
    this.taskOutcomes = meter.createCounter(METRIC.taskOutcomes, {
      description: 'Tasks reaching a terminal or interrupted state, by state',
    });
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
