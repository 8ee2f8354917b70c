import { describe, expect, it } from 'vitest';
import { encodeMessage } from './convert.js';
import { utf8Error } from './utf8.js';

const TYPE = 'lf.a2a.v1.SendMessageRequest';
const request = (text: string, extra: Record<string, unknown> = {}) =>
  encodeMessage('SendMessageRequest', {
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'a' }, { text }] },
    ...extra,
  });

/** `bytes` with the ASCII `marker` overwritten by `replacement` (same length). */
function patch(bytes: Uint8Array, marker: string, replacement: number[]): Buffer {
  const out = Buffer.from(bytes);
  const at = out.indexOf(marker);
  if (at < 0) throw new Error('no marker');
  out.set(replacement, at);
  return out;
}

/** A field tag: number and wire type. */
const tag = (number: number, wireType: number) => (number << 3) | wireType;

describe('utf8Error (gRPC string fields)', () => {
  it('accepts valid UTF-8, U+FFFD included', () => {
    expect(utf8Error(request('\uFFFD 任务 🌍'), TYPE)).toBeUndefined();
  });

  it('names the field of a string that is not UTF-8', () => {
    const error = utf8Error(patch(request('BAD!'), 'BAD!', [0x41, 0xff, 0x41, 0x41]), TYPE);
    expect(error?.code).toBe('INVALID_PARAMS');
    expect(error?.fieldViolations).toEqual([
      { field: 'message.parts.1.text', description: 'must be valid UTF-8' },
    ]);
  });

  it('checks Struct contents, keys and values, naming the Struct field', () => {
    for (const metadata of [{ BAD: 1 }, { k: ['BAD'] }]) {
      const bytes = patch(request('a', { metadata }), 'BAD', [0xc0, 0xaf, 0x41]);
      expect(utf8Error(bytes, TYPE)?.fieldViolations[0]?.field).toBe('metadata');
    }
  });

  it('does not look into bytes fields or unknown fields', () => {
    const raw = encodeMessage('SendMessageRequest', {
      message: {
        messageId: 'm',
        role: 'ROLE_USER',
        parts: [{ raw: Buffer.from([0xff]).toString('base64') }],
      },
    });
    expect(utf8Error(raw, TYPE)).toBeUndefined();
    const unknown = Buffer.concat([request('a'), Buffer.from([tag(15, 2), 1, 0xff])]);
    expect(utf8Error(unknown, TYPE)).toBeUndefined();
  });

  it('skips unknown groups and still checks the fields after them', () => {
    const group = [tag(15, 3), tag(1, 0), 5, tag(15, 4)];
    const badTenant = [tag(1, 2), 1, 0xff];
    expect(utf8Error(Buffer.from([...group, ...badTenant]), TYPE)?.fieldViolations[0]?.field).toBe(
      'tenant',
    );
  });

  it('refuses what it cannot read as the declared type (the decoder would guess)', () => {
    for (const bytes of [
      [tag(1, 0), 1], // tenant (a string) sent as a varint
      [tag(1, 2), 5, 0x41], // a length past the end
      [tag(1, 6)], // no such wire type
      [tag(1, 2)], // ends inside the length
    ]) {
      const error = utf8Error(Buffer.from(bytes), TYPE);
      expect(error?.code, JSON.stringify(bytes)).toBe('INVALID_PARAMS');
      expect(error?.message).toMatch(/^The request is not a valid SendMessageRequest message: /);
    }
  });
});
