import { describe, expect, it } from 'vitest';
import { UsageError } from './exit-codes.js';
import { globalOptions, keyValue, parseFlags, parseTaskState } from './options.js';
import { splitRows } from './render/wrap-rows.js';
import { agentUrl } from './connect.js';

describe('parseTaskState', () => {
  it.each([
    ['working', 'TASK_STATE_WORKING'],
    ['WORKING', 'TASK_STATE_WORKING'],
    ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
    ['input_required', 'TASK_STATE_INPUT_REQUIRED'],
    ['TASK_STATE_CANCELED', 'TASK_STATE_CANCELED'],
  ])('reads %s as %s', (raw, state) => {
    expect(parseTaskState(raw)).toBe(state);
  });

  it.each(['unspecified', 'done', ''])('refuses %j', (raw) => {
    expect(() => parseTaskState(raw)).toThrow(UsageError);
  });
});

describe('global flags', () => {
  it('reads headers, binding aliases, timeout and API keys', () => {
    const { values } = parseFlags(
      [
        '--header',
        'X-A=1',
        '--header',
        'X-B: two',
        '--binding',
        'rest',
        '--timeout',
        '1.5',
        '--api-key',
        'X-Key=s3',
      ],
      {},
    );
    expect(globalOptions(values)).toEqual({
      json: false,
      binding: 'HTTP+JSON',
      headers: { 'X-A': '1', 'X-B': 'two' },
      tenant: undefined,
      timeoutMs: 1500,
      token: undefined,
      apiKey: { name: 'X-Key', value: 's3' },
    });
  });

  it('splits NAME=VALUE once and refuses a missing name', () => {
    expect(keyValue('a=b=c', '--header')).toEqual(['a', 'b=c']);
    expect(() => keyValue('=x', '--header')).toThrow(UsageError);
  });
});

describe('agentUrl', () => {
  it.each([
    ['http://127.0.0.1:8765/', 'http://127.0.0.1:8765'],
    ['127.0.0.1:8765', 'http://127.0.0.1:8765'],
    ['https://agent.example.com/a2a', 'https://agent.example.com/a2a'],
  ])('reads %s as %s', (raw, url) => {
    expect(agentUrl(raw)).toBe(url);
  });

  it('refuses other schemes', () => {
    expect(() => agentUrl('ftp://x')).toThrow(UsageError);
  });
});

describe('splitRows', () => {
  it('wraps at spaces, keeps the unfinished rest, and honours newlines', () => {
    expect(splitRows('one two three four', 9)).toEqual({
      rows: ['one two', 'three'],
      rest: 'four',
    });
    expect(splitRows('abcdefghij', 4)).toEqual({ rows: ['abcd', 'efgh'], rest: 'ij' });
    expect(splitRows('a\nb\n', 10)).toEqual({ rows: ['a', 'b'], rest: '' });
  });
});
