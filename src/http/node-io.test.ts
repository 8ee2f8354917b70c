import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onNodeBody, readNodeBody, type NodeBody, type NodeRequestLike } from './node-io.js';

/** A request stand-in: its headers, and `pause()` counted. */
function request(
  headers: Record<string, string>,
): NodeRequestLike & EventEmitter & { paused: number } {
  const req = new EventEmitter() as EventEmitter & {
    headers: Record<string, string>;
    paused: number;
    pause(): unknown;
  };
  req.headers = headers;
  req.paused = 0;
  req.pause = () => (req.paused++, req);
  return req;
}

/** What `onNodeBody` called back with, and how often. */
function outcome(req: NodeRequestLike, max: number) {
  const calls: Array<{ body: NodeBody } | { error: Error }> = [];
  onNodeBody(
    req,
    max,
    (body) => calls.push({ body }),
    (error) => calls.push({ error }),
  );
  return calls;
}

describe('onNodeBody', () => {
  it('answers at once when there is no body, or its announced length is past the limit', () => {
    expect(outcome(request({}), 10)).toEqual([{ body: undefined }]);
    expect(outcome(request({ 'content-length': '11' }), 10)).toEqual([{ body: 'too large' }]);
  });

  it('joins the chunks, and leaves no listener behind', () => {
    const req = request({ 'transfer-encoding': 'chunked' });
    const calls = outcome(req, 10);
    req.emit('data', new TextEncoder().encode('{"a"'));
    req.emit('data', new TextEncoder().encode(':1}'));
    expect(calls).toEqual([]);
    req.emit('end');
    expect(calls).toHaveLength(1);
    expect(new TextDecoder().decode((calls[0] as { body: Uint8Array }).body)).toBe('{"a":1}');
    expect(req.eventNames()).toEqual([]);
  });

  it('stops and pauses once the body passes the limit, once', () => {
    const req = request({ 'transfer-encoding': 'chunked' });
    const calls = outcome(req, 4);
    req.emit('data', new Uint8Array(3));
    req.emit('data', new Uint8Array(3));
    req.emit('data', new Uint8Array(3));
    req.emit('end');
    expect(calls).toEqual([{ body: 'too large' }]);
    expect(req.paused).toBe(1);
  });

  it('fails once when the client goes away while sending', async () => {
    const req = request({ 'content-length': '5' });
    const calls = outcome(req, 10);
    req.emit('data', new Uint8Array(2));
    req.emit('close');
    req.emit('end');
    expect(calls).toHaveLength(1);
    expect((calls[0] as { error: Error }).error.message).toContain('went away');
    // The promise form rejects the same way.
    const other = request({ 'content-length': '5' });
    const read = readNodeBody(other, 10);
    other.emit('close');
    await expect(read).rejects.toThrow('went away');
  });
});
