import { describe, expect, it } from 'vitest';
import type { AgentInterface } from '../core/schemas/index.js';
import { IncompatibleAgentError } from '../transport/errors.js';
import { candidateInterfaces } from './select.js';

const iface = (
  protocolBinding: string,
  protocolVersion = '1.0',
  url = `http://h/${protocolBinding}`,
): AgentInterface => ({
  url,
  protocolBinding,
  protocolVersion,
});
const BOTH = ['JSONRPC', 'HTTP+JSON'];

describe('candidateInterfaces', () => {
  it('keeps the card order among the bindings the client speaks [21][22][23]', () => {
    const card = { supportedInterfaces: [iface('GRPC'), iface('HTTP+JSON'), iface('JSONRPC')] };
    expect(candidateInterfaces(card, { bindings: BOTH }).map((i) => i.protocolBinding)).toEqual([
      'HTTP+JSON',
      'JSONRPC',
    ]);
  });

  it('matches on Major.Minor only: a patch version still matches [30]', () => {
    const card = { supportedInterfaces: [iface('JSONRPC', '1.0.3')] };
    expect(candidateInterfaces(card, { bindings: BOTH })).toHaveLength(1);
  });

  it('narrows to the preferred binding', () => {
    const card = { supportedInterfaces: [iface('HTTP+JSON'), iface('JSONRPC')] };
    expect(
      candidateInterfaces(card, { bindings: BOTH, preferredBinding: 'JSONRPC' }).map(
        (i) => i.protocolBinding,
      ),
    ).toEqual(['JSONRPC']);
  });

  it.each<[string, AgentInterface[], string | undefined, string]>([
    [
      'only another binding',
      [iface('GRPC')],
      undefined,
      'agent only offers GRPC 1.0, this client speaks JSONRPC, HTTP+JSON',
    ],
    [
      'only an older version',
      [iface('JSONRPC', '0.3'), iface('HTTP+JSON', '0.3.0')],
      undefined,
      'agent speaks protocol 0.3 only; this client speaks 1.0 (agent offers JSONRPC 0.3, HTTP+JSON 0.3)',
    ],
    [
      'another binding now, ours only in an old version',
      [iface('GRPC'), iface('JSONRPC', '0.3')],
      undefined,
      'agent only offers GRPC 1.0 (and JSONRPC 0.3), this client speaks JSONRPC, HTTP+JSON',
    ],
    [
      'not the preferred binding',
      [iface('JSONRPC')],
      'HTTP+JSON',
      'agent does not offer HTTP+JSON 1.0; it offers JSONRPC 1.0',
    ],
  ])('explains a card offering %s [35][36]', (_name, interfaces, preferredBinding, message) => {
    const error = (() => {
      try {
        candidateInterfaces(
          { supportedInterfaces: interfaces },
          { bindings: BOTH, preferredBinding },
        );
      } catch (e) {
        return e;
      }
      throw new Error('expected IncompatibleAgentError');
    })();
    expect(error).toBeInstanceOf(IncompatibleAgentError);
    expect((error as Error).message).toBe(message);
    expect((error as IncompatibleAgentError).offered).toEqual(interfaces);
  });
});
