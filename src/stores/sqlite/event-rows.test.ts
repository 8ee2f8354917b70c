import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../security/jcs.js';
import { eventRow, rowLines } from './event-rows.js';

describe('log rows of one write (event-rows.ts)', () => {
  it('keeps a single event as its own text, as versions before 9 did', () => {
    expect(eventRow(['{"a":1}'], undefined)).toStrictEqual({ event: '{"a":1}', hash: null });
    expect(eventRow(['{"a":1}'], ['h1'])).toStrictEqual({ event: '{"a":1}', hash: 'h1' });
    expect(rowLines({ seq: 7, event: '{"a":1}', hash: 'h1' })).toStrictEqual([
      { seq: 7, text: '{"a":1}', hash: 'h1' },
    ]);
  });

  it('gives back the events of a row, numbered up to its seq, with their links', () => {
    const texts = ['{"a":1}', '{"b":2}', '{"c":3}'];
    const row = eventRow(texts, ['h1', 'h2', 'h3']);
    expect(rowLines({ seq: 12, ...row })).toStrictEqual([
      { seq: 10, text: texts[0], hash: 'h1' },
      { seq: 11, text: texts[1], hash: 'h2' },
      { seq: 12, text: texts[2], hash: 'h3' },
    ]);
    const unaudited = eventRow(texts, undefined);
    expect(unaudited.hash).toBeNull();
    expect(rowLines({ seq: 3, ...unaudited }).map((l) => [l.seq, l.hash])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
    // Only the events after a seq, when the row starts before it.
    expect(rowLines({ seq: 12, ...row }, 10).map((l) => l.seq)).toEqual([11, 12]);
    expect(rowLines({ seq: 12, ...row }, 12)).toEqual([]);
    expect(rowLines({ seq: 12, ...row }, 3).map((l) => l.seq)).toEqual([10, 11, 12]);
    // A chain shorter than the events leaves the others without a link.
    const partial = eventRow(texts, ['h1']);
    expect(rowLines({ seq: 3, ...partial }).map((l) => l.hash)).toEqual(['h1', null, null]);
  });

  it('relies on JSON text never holding a raw line feed, in either writer of the log', () => {
    // Line and paragraph separators, a line feed and a carriage return inside strings, and a key.
    const event = { text: 'one\ntwo\r\nthree\u2028four\u2029five', 'k\ny': ['\n'] };
    for (const text of [JSON.stringify(event), canonicalize(event)]) {
      expect(text).not.toContain('\n');
      const row = eventRow([text, text], undefined);
      expect(rowLines({ seq: 2, ...row }).map((l) => JSON.parse(l.text) as unknown)).toEqual([
        event,
        event,
      ]);
    }
  });
});
