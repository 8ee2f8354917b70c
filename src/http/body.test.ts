import { describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { bodyText } from './body.js';
import type { HttpRequest } from './types.js';

const request = (body: Uint8Array | string): HttpRequest => ({
  method: 'POST',
  url: '/',
  headers: { get: () => null },
  body,
});

describe('bodyText', () => {
  it('decodes UTF-8 bytes, as the Node and fetch adapters hand them over', () => {
    expect(bodyText(request(new TextEncoder().encode('{"é":"🌍\uFFFD"}')), 1024)).toBe(
      '{"é":"🌍\uFFFD"}',
    );
  });

  it('[59] refuses bytes that are not UTF-8 as PARSE_ERROR instead of decoding U+FFFD', () => {
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const body = new Uint8Array([0x22, ...bad, 0x22]);
      let thrown: unknown;
      try {
        bodyText(request(body), 1024);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(A2AError);
      expect((thrown as A2AError).code).toBe('PARSE_ERROR');
      expect((thrown as A2AError).message).toContain('UTF-8');
    }
  });

  it('still applies the size limit first', () => {
    expect(() => bodyText(request(new Uint8Array(2048).fill(0xff)), 1024)).toThrow(/limit/);
  });
});
