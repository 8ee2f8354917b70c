import { describe, expect, it } from 'vitest';
import {
  isSupportedVersion,
  requestedExtensions,
  requestedVersion,
  versionError,
} from './service-params.js';
import type { HttpRequest } from './types.js';

function request(headers: Record<string, string>, method = 'GET'): HttpRequest {
  return { method, url: '/', headers: { get: (name) => headers[name] ?? null } };
}

describe('A2A-Version', () => {
  it.each([
    ['1.0', true],
    ['1.0.1', true],
    ['1.0.27', true],
    ['0.3', false],
    ['0.3.0', false],
    ['1.1', false],
    ['2.0', false],
    ['1', false],
    ['1.0.', false],
    ['1.0.x', false],
    ['1.01', false],
    ['', false],
  ])('[30] %s is served: %s', (version, served) => {
    expect(isSupportedVersion(version)).toBe(served);
    expect(versionError(version) === undefined).toBe(served);
  });

  it('[33] treats a missing version as 0.3 and tells the client what to send', () => {
    const error = versionError('');
    expect(error?.code).toBe('VERSION_NOT_SUPPORTED');
    expect(error?.message).toContain('0.3');
    expect(error?.message).toContain('A2A-Version: 1.0');
  });

  it('[32] names the requested and the supported versions', () => {
    const error = versionError('2.0');
    expect(error?.message).toContain('2.0');
    expect(error?.message).toContain('supports 1.0');
  });

  it('[29] reads the header first, then the A2A-Version query parameter (any case)', () => {
    expect(requestedVersion(request({ 'a2a-version': ' 1.0 ' }), 'A2A-Version=0.3')).toBe('1.0');
    expect(requestedVersion(request({}), 'x=1&A2A-Version=1.0')).toBe('1.0');
    expect(requestedVersion(request({}), 'a2a-version=1.0')).toBe('1.0');
    expect(requestedVersion(request({}), 'x=1')).toBe('');
    expect(requestedVersion(request({}), '')).toBe('');
  });

  it('[29][39] takes the query parameter on GET and HEAD only: a state-changing request carries the header (spec §9.2, §11.2)', () => {
    expect(requestedVersion(request({}, 'HEAD'), 'A2A-Version=1.0')).toBe('1.0');
    expect(requestedVersion(request({}, 'POST'), 'A2A-Version=1.0')).toBe('');
    expect(requestedVersion(request({}, 'DELETE'), 'A2A-Version=1.0')).toBe('');
    expect(requestedVersion(request({ 'a2a-version': '1.0' }, 'POST'), '')).toBe('1.0');
  });
});

describe('A2A-Extensions', () => {
  it('[40] splits the comma-separated list, trims it and drops empties and repeats', () => {
    expect(requestedExtensions(request({ 'a2a-extensions': ' urn:a , urn:b,,urn:a ' }))).toEqual([
      'urn:a',
      'urn:b',
    ]);
    expect(requestedExtensions(request({ 'a2a-extensions': ' , ' }))).toBeUndefined();
    expect(requestedExtensions(request({}))).toBeUndefined();
  });
});
