import { describe, expect, it } from 'vitest';
import { TransportError } from './errors.js';
import { parseSse, type SseEvent, type SseParseOptions } from './sse-parse.js';

const enc = new TextEncoder();

async function* fromChunks(chunks: readonly (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield typeof c === 'string' ? enc.encode(c) : c;
}

async function collect(
  chunks: readonly (string | Uint8Array)[],
  options?: SseParseOptions,
): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of parseSse(fromChunks(chunks), options)) out.push(e);
  return out;
}

describe('parseSse', () => {
  it.each([
    ['a single data line', 'data: hello\n\n', [{ data: 'hello' }]],
    ['multi-line data joined with LF', 'data: a\ndata: b\ndata:\n\n', [{ data: 'a\nb\n' }]],
    [
      'id and event fields',
      'event: error\nid: 7\ndata: x\n\n',
      [{ event: 'error', id: '7', data: 'x' }],
    ],
    ['no space after the colon', 'data:x\n\n', [{ data: 'x' }]],
    ['only one leading space is removed', 'data:  x\n\n', [{ data: ' x' }]],
    ['comments (keep-alives) are ignored', ': keep-alive\n\n: ping\ndata: x\n\n', [{ data: 'x' }]],
    ['a field without a colon has an empty value', 'data\n\n', [{ data: '' }]],
    ['unknown fields are ignored', 'foo: bar\ndata: x\n\n', [{ data: 'x' }]],
    ['an event without data is not dispatched', 'id: 1\nevent: e\n\ndata: y\n\n', [{ data: 'y' }]],
    ['CRLF line ends', 'data: a\r\nid: 1\r\n\r\n', [{ id: '1', data: 'a' }]],
    ['CR line ends', 'data: a\rdata: b\r\r', [{ data: 'a\nb' }]],
    ['mixed line ends', 'data: a\r\ndata: b\rdata: c\n\n', [{ data: 'a\nb\nc' }]],
    ['a leading BOM is ignored', '\uFEFFdata: x\n\n', [{ data: 'x' }]],
    ['an id containing NUL is ignored', 'id: a\0b\ndata: x\n\n', [{ data: 'x' }]],
    ['an incomplete last event is discarded', 'data: a\n\ndata: partial\n', [{ data: 'a' }]],
    [
      'ids are reported per event only',
      'id: 1\ndata: a\n\ndata: b\n\n',
      [{ id: '1', data: 'a' }, { data: 'b' }],
    ],
  ])('parses %s', async (_name, input, expected) => {
    expect(await collect([input])).toEqual(expected);
  });

  it('gives the same events however the bytes are split into chunks', async () => {
    const input =
      'id: 1\r\ndata: {"text":"héllo → 世界"}\r\n\r\n: keep-alive\n\nevent: error\rdata: a\rdata: b\r\r';
    const bytes = enc.encode(input);
    const expected = await collect([input]);
    expect(expected).toEqual([
      { id: '1', data: '{"text":"héllo → 世界"}' },
      { event: 'error', data: 'a\nb' },
    ]);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(expected);
    }
    expect(await collect([...bytes].map((b) => Uint8Array.of(b)))).toEqual(expected);
  });

  it('treats CR at the end of a chunk and LF at the start of the next as one line end', async () => {
    // If CR and LF counted as two line ends, the empty line between would dispatch "a" alone.
    expect(await collect(['data: a\r', '\ndata: b\n\n'])).toEqual([{ data: 'a\nb' }]);
  });

  it('reports retry values', async () => {
    const retries: number[] = [];
    await collect(['retry: 1500\nretry: x\ndata: a\n\n'], { onRetry: (ms) => retries.push(ms) });
    expect(retries).toEqual([1500]);
  });

  it('rejects an event larger than the limit with BAD_RESPONSE', async () => {
    const big = `data: ${'x'.repeat(200)}\n\n`;
    const error = await collect([big.slice(0, 50), big.slice(50)], { maxEventBytes: 100 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('BAD_RESPONSE');
    expect((error as TransportError).message).toMatch(/larger than 100 bytes/);
  });

  it('counts every line of an event toward the limit, not just one', async () => {
    const lines = Array.from({ length: 10 }, () => `data: ${'x'.repeat(20)}\n`).join('');
    await expect(collect([`${lines}\n`], { maxEventBytes: 100 })).rejects.toThrow(TransportError);
  });

  it('accepts a long stream of events that are each below the limit', async () => {
    const events = Array.from(
      { length: 50 },
      (_, i) => `id: ${i}\ndata: ${'y'.repeat(80)}\n\n`,
    ).join('');
    expect(await collect([events], { maxEventBytes: 100 })).toHaveLength(50);
  });

  it('stops reading a line that never ends once it passes the limit (bounded memory)', async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        produced++;
        yield enc.encode('data: ' + 'z'.repeat(1000));
      }
    }
    await expect(async () => {
      for await (const _ of parseSse(endless(), { maxEventBytes: 10_000 })) void _;
    }).rejects.toThrow(/larger than 10000 bytes/);
    expect(produced).toBeLessThan(20);
  });

  it('cancels a web stream source when the consumer stops early', async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const e of parseSse(source)) {
      expect(e.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
