/**
 * The in-process tallies behind a2a-kit's counts, read through the real metrics SDK: each label
 * combination is one series with its count, an up-down tally goes back to zero, and past the
 * label-set limit (the SDK's own) counts go to one overflow series instead of being lost or growing without bound.
 */
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { Instruments } from './instruments.js';
import { ATTR, METRIC } from './names.js';

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

async function points(reader: Reader, name: string): Promise<DataPoint<number>[]> {
  const { resourceMetrics } = await reader.collect();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name === name) return metric.dataPoints as DataPoint<number>[];
    }
  }
  return [];
}

describe('metric tallies', () => {
  it('reports one series per label combination, with its count, when the reader collects', async () => {
    const reader = new Reader();
    const meters = new Instruments(new MeterProvider({ readers: [reader] }).getMeter('test'));
    meters.serverRequests.get('SendMessage', 'JSONRPC', 'OK').value++;
    meters.serverRequests.get('SendMessage', 'JSONRPC', 'OK').value++;
    meters.serverRequests.get('GetTask', 'GRPC', 'TASK_NOT_FOUND').value++;
    const running = meters.activeTasks.get('echo');
    running.value++;
    expect(
      (await points(reader, METRIC.serverRequests)).map((p) => [p.attributes, p.value]),
    ).toEqual([
      [{ [ATTR.method]: 'SendMessage', [ATTR.binding]: 'JSONRPC', [ATTR.outcome]: 'OK' }, 2],
      [{ [ATTR.method]: 'GetTask', [ATTR.binding]: 'GRPC', [ATTR.outcome]: 'TASK_NOT_FOUND' }, 1],
    ]);
    expect((await points(reader, METRIC.activeTasks)).map((p) => p.value)).toEqual([1]);
    running.value--;
    expect((await points(reader, METRIC.activeTasks)).map((p) => p.value)).toEqual([0]);
  });

  it('counts past 1,999 label combinations in one overflow series (2,000 series in all, the SDK default limit)', async () => {
    const reader = new Reader();
    const meters = new Instruments(new MeterProvider({ readers: [reader] }).getMeter('test'));
    for (let i = 0; i < 2_010; i++) meters.taskOutcomes.get(`STATE_${i}`).value++;
    const series = await points(reader, METRIC.taskOutcomes);
    expect(series).toHaveLength(2_000);
    const overflow = series.filter((p) => p.attributes['otel.metric.overflow'] === true);
    expect(overflow.map((p) => p.value)).toEqual([11]);
  });
});
