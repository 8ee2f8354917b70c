/** did:wba identifiers: where each DID's document lives, and the DIDs refused (ANP did:wba v1.1 §2). */
import { describe, expect, it } from 'vitest';
import { DidAuthError } from './errors.js';
import { didDocumentPath, didWbaForUrl, parseDidWba, splitDidUrl } from './identifier.js';

describe('parseDidWba', () => {
  it.each([
    ['did:wba:example.com', 'https://example.com/.well-known/did.json'],
    ['did:wba:example.com:user:alice', 'https://example.com/user/alice/did.json'],
    ['did:wba:example.com%3A8443', 'https://example.com:8443/.well-known/did.json'],
    ['did:wba:Example.COM%3a8443:agents:a%20b', 'https://example.com:8443/agents/a%20b/did.json'],
  ])('%s resolves at %s', (did, url) => {
    expect(parseDidWba(did).documentUrl).toBe(url);
  });

  it.each([
    ['did:web:example.com', /does not start with did:wba:/],
    ['did:wba:127.0.0.1', /not an IP address/],
    ['did:wba:[::1]', /not an IP address|not a domain name/],
    ['did:wba:example.com%3Ax', /port x is not a number/],
    ['did:wba:example.com::alice', /path segment is empty/],
    ['did:wba:example.com:..', /dot segment/],
    ['did:wba:exa_mple.com', /not a domain name/],
    ['did:wba:example.com#key-1', /fragment/],
    ['did:wba:example.com%ZZ', /percent-encoding/],
    ['did:wba:example.com:user:e1_tooShort', /e1_ fingerprint is not 43 base64url/],
    [`did:wba:example.com:user:e1_${'a'.repeat(42)}=`, /e1_ fingerprint is not 43 base64url/],
    [`did:wba:example.com:user:k1_${'a'.repeat(43)}`, /k1_ profile .* not supported/],
  ])('refuses %s', (did, why) => {
    const error = (() => {
      try {
        parseDidWba(did);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DidAuthError);
    expect((error as DidAuthError).reason).toBe('UNSUPPORTED_DID');
    expect((error as DidAuthError).message).toMatch(why);
  });
});

describe('the e1_ path profile (ANP did:wba v1.1 §2.2.1)', () => {
  it('reads the fingerprint of an e1_ DID; its document lives under the e1_ segment', () => {
    const fingerprint = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
    const did = `did:wba:example.com%3A3000:user:alice:e1_${fingerprint}`;
    expect(parseDidWba(did)).toMatchObject({
      e1Fingerprint: fingerprint,
      documentUrl: `https://example.com:3000/user/alice/e1_${fingerprint}/did.json`,
    });
    expect(parseDidWba('did:wba:example.com:user:alice').e1Fingerprint).toBeUndefined();
  });
});

describe('DID URLs and our own DID', () => {
  it('splits a DID URL into DID and key fragment, and refuses one without a fragment', () => {
    expect(splitDidUrl('did:wba:example.com#key-1')).toEqual({
      did: 'did:wba:example.com',
      fragment: 'key-1',
    });
    expect(() => splitDidUrl('did:wba:example.com')).toThrow(/DID URL naming a key/);
  });

  it('derives the DID of an https URL, and the path its document is served at', () => {
    expect(didWbaForUrl('https://agent.example.com')).toBe('did:wba:agent.example.com');
    const did = didWbaForUrl('https://agent.example.com:8443/agents/a/');
    expect(did).toBe('did:wba:agent.example.com%3A8443:agents:a');
    expect(didDocumentPath(did)).toBe('/agents/a/did.json');
    expect(didDocumentPath('did:wba:agent.example.com')).toBe('/.well-known/did.json');
    expect(() => didWbaForUrl('http://agent.example.com')).toThrow(/https/);
  });
});
