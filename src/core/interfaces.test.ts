import { describe, expect, it } from 'vitest';
import type { AgentCard } from './schemas/index.js';
import { majorMinor, selectInterface, selectInterfaces } from './interfaces.js';

const card: Pick<AgentCard, 'supportedInterfaces' | 'version'> = {
  version: '1.2.0', // the agent's own version: not a protocol version
  supportedInterfaces: [
    { url: 'https://echo.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://echo.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
};

describe('selectInterface', () => {
  it('[21,22,23] picks the first entry matching binding and protocol version', () => {
    expect(selectInterface(card, 'JSONRPC', '1.0')?.url).toBe('https://echo.example/a2a');
    expect(selectInterface(card, 'HTTP+JSON', '1.0')?.url).toBe('https://echo.example/rest');
  });

  it('[21] returns none when the binding is not offered', () => {
    expect(selectInterface(card, 'GRPC', '1.0')).toBeUndefined();
  });

  it('[21,36] returns none when the protocol version does not match, ignoring the agent version', () => {
    expect(selectInterface(card, 'JSONRPC', '0.3')).toBeUndefined();
    expect(selectInterface(card, 'JSONRPC', '1.2')).toBeUndefined();
  });

  it('[30] ignores patch numbers on both sides', () => {
    expect(selectInterface(card, 'JSONRPC', '1.0.7')?.url).toBe('https://echo.example/a2a');
    const patched = {
      supportedInterfaces: [{ url: 'u', protocolBinding: 'JSONRPC', protocolVersion: '1.0.1' }],
    };
    expect(selectInterface(patched, 'JSONRPC')?.url).toBe('u');
  });

  it('[22] keeps the card preference order across several bindings', () => {
    const order = selectInterfaces(card, ['HTTP+JSON', 'JSONRPC']).map((i) => i.protocolBinding);
    expect(order).toEqual(['JSONRPC', 'HTTP+JSON']);
  });

  it('reads Major.Minor out of version strings', () => {
    expect(majorMinor('1.0')).toBe('1.0');
    expect(majorMinor('01.00.9')).toBe('1.0');
    expect(majorMinor('garbage')).toBe('garbage');
  });
});
