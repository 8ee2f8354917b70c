import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../core/schemas/index.js';
import { StepIterator, type ReadyIterator } from '../core/ready-iterator.js';
import { KEEP_ALIVE_FRAME, encodeSse, sseFrame } from './sse-encode.js';
import type { StreamItem } from '../core/service.js';

const working: StreamResponse = {
  statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } },
};
const options = {
  keepAliveMs: 0,
  data: (item: StreamItem) => JSON.stringify(item.event),
  errorFrame: (error: unknown) => `event: error\ndata: ${String(error)}\n\n`,
};

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of iterable) out.push(chunk);
  return out;
}

async function* items(...list: StreamItem[]): AsyncGenerator<StreamItem> {
  yield* list;
}

/** An iterator whose next() never settles; records return() calls. */
function stuckSource(): AsyncIterable<StreamItem> & { returned: number } {
  const source = {
    returned: 0,
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<StreamItem>>(() => undefined),
      return: async () => {
        source.returned++;
        return { done: true as const, value: undefined };
      },
    }),
  };
  return source;
}

describe('encodeSse', () => {
  it('[118] writes one data line of single-line JSON per event, with the id line when set', async () => {
    const text = { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'a\nb' }] } };
    const frames = await collect(
      encodeSse(items({ id: '7', event: working }, { event: text as StreamResponse }), options),
    );
    expect(frames).toEqual([
      `id: 7\ndata: ${JSON.stringify(working)}\n\n`,
      `data: ${JSON.stringify(text)}\n\n`,
    ]);
    expect(frames[1]?.split('\n')).toHaveLength(3); // the newline inside the text stays escaped
  });

  it('drops an id that would break the frame', () => {
    expect(sseFrame('{}', 'a\nb')).toBe('data: {}\n\n');
    expect(sseFrame('{}', '12')).toBe('id: 12\ndata: {}\n\n');
  });

  it('sends a keep-alive comment while the source is idle', async () => {
    async function* slow(): AsyncGenerator<StreamItem> {
      await new Promise((resolve) => setTimeout(resolve, 120));
      yield { event: working };
    }
    const frames = await collect(encodeSse(slow(), { ...options, keepAliveMs: 25 }));
    expect(frames.filter((f) => f === KEEP_ALIVE_FRAME).length).toBeGreaterThanOrEqual(2);
    expect(frames.at(-1)).toBe(`data: ${JSON.stringify(working)}\n\n`);
  });

  it('keeps a stream idle for keepAliveMs after its ready frames before the first keep-alive', async () => {
    // Two frames handed out at once (nextReady: no clock, no timer), then a wait of ~60 ms.
    let release!: () => void;
    const later = new Promise<void>((r) => (release = r));
    const body = (function* (): Generator<unknown, void, unknown> {
      yield { id: '1', event: working };
      yield { id: '2', event: working };
      yield later;
      yield { id: '3', event: working };
    })();
    const encoder = encodeSse(new StepIterator<StreamItem>(body), { ...options, keepAliveMs: 40 });
    const ready = encoder as AsyncIterableIterator<string> & ReadyIterator<string>;
    expect(ready.nextReady?.()?.value).toBe(`id: 1\ndata: ${JSON.stringify(working)}\n\n`);
    expect(ready.nextReady?.()?.value).toBe(`id: 2\ndata: ${JSON.stringify(working)}\n\n`);
    expect(ready.nextReady?.()).toBeUndefined();
    const started = performance.now();
    setTimeout(release, 60);
    const first = await encoder.next();
    expect(first.value).toBe(KEEP_ALIVE_FRAME);
    expect(performance.now() - started).toBeGreaterThanOrEqual(38);
    expect((await encoder.next()).value).toBe(`id: 3\ndata: ${JSON.stringify(working)}\n\n`);
    expect((await encoder.next()).done).toBe(true);
  });

  it('ends with the error frame when the source fails mid-stream', async () => {
    async function* failing(): AsyncGenerator<StreamItem> {
      yield { event: working };
      throw new Error('boom');
    }
    const frames = await collect(encodeSse(failing(), options));
    expect(frames).toEqual([
      `data: ${JSON.stringify(working)}\n\n`,
      'event: error\ndata: Error: boom\n\n',
    ]);
  });

  it('ends with the error frame and releases the source when an event cannot be encoded', async () => {
    let released = false;
    async function* source(): AsyncGenerator<StreamItem> {
      try {
        yield { event: working };
        yield { event: working };
      } finally {
        released = true;
      }
    }
    const frames = await collect(
      encodeSse(source(), {
        ...options,
        data: () => {
          throw new Error('unencodable');
        },
      }),
    );
    expect(frames).toEqual(['event: error\ndata: Error: unencodable\n\n']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toBe(true);
  });

  it('stops at once and calls return() on the source when the consumer leaves mid-wait', async () => {
    const source = stuckSource();
    const encoded = encodeSse(source, { ...options, keepAliveMs: 60_000 });
    const pending = encoded.next();
    await encoded.return?.();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(source.returned).toBe(1);
    await expect(encoded.next()).resolves.toMatchObject({ done: true });
    await encoded.return?.();
    expect(source.returned).toBe(1);
  });

  it('does not call return() on a source that ended by itself', async () => {
    let returned = 0;
    const source: AsyncIterable<StreamItem> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: true as const, value: undefined }),
        return: async () => {
          returned++;
          return { done: true as const, value: undefined };
        },
      }),
    };
    const encoded = encodeSse(source, options);
    expect(await collect(encoded)).toEqual([]);
    await encoded.return?.();
    expect(returned).toBe(0);
  });
});
