/**
 * eddsa-jcs-2022 against the test vectors of W3C Data Integrity EdDSA Cryptosuites v1.0 (Appendix
 * "Representation: eddsa-jcs-2022", files TestVectors/eddsa-jcs-2022/* and TestVectors/keyPair.json
 * of github.com/w3c/vc-di-eddsa): the same key, credential and proof options give the same hash
 * data and, Ed25519 being deterministic, the same proofValue; the signed credential verifies, and
 * a changed one does not. Plus the Multikey and RFC 7638 thumbprint encodings.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEddsaJcs2022Proof,
  eddsaJcs2022HashData,
  eddsaJcs2022Problem,
} from './data-integrity.js';
import {
  decodeMultibaseBase58btc,
  ed25519JwkOfMultikey,
  ed25519Multikey,
  ed25519Thumbprint,
} from './multikey.js';

// TestVectors/keyPair.json
const PUBLIC_MULTIBASE = 'z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';
const PRIVATE_MULTIBASE = 'z3u2en7t5LR2WtQH5PfFqMqwVHBeXouLzo6haApm8XHqvjxq';
const VM = `did:key:${PUBLIC_MULTIBASE}#${PUBLIC_MULTIBASE}`;
const CONTEXT = [
  'https://www.w3.org/ns/credentials/v2',
  'https://www.w3.org/ns/credentials/examples/v2',
];

// TestVectors/unsigned.json
const unsigned = {
  '@context': CONTEXT,
  id: 'urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33',
  type: ['VerifiableCredential', 'AlumniCredential'],
  name: 'Alumni Credential',
  description: 'A minimum viable example of an Alumni Credential.',
  issuer: 'https://vc.example/issuers/5678',
  validFrom: '2023-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:abcdefgh', alumniOf: 'The School of Examples' },
};

// TestVectors/eddsa-jcs-2022/proofConfigJCS.json
const proofConfig = {
  type: 'DataIntegrityProof',
  cryptosuite: 'eddsa-jcs-2022',
  created: '2023-02-24T23:36:38Z',
  verificationMethod: VM,
  proofPurpose: 'assertionMethod',
  '@context': CONTEXT,
};

// combinedHashJCS.txt, sigBTC58JCS.txt
const COMBINED_HASH =
  '66ab154f5c2890a140cb8388a22a160454f80575f6eae09e5a097cabe539a1db' +
  '59b7cb6251b8991add1ce0bc83107e3db9dbbab5bd2c28f687db1a03abc92f19';
const PROOF_VALUE =
  'z2HnFSSPPBzR36zdDgK8PbEHeXbR56YF24jwMpt3R1eHXQzJDMWS93FCzpvJpwTWd3GAVFuUfjoJdcnTMuVor51aX';

const publicJwk = ed25519JwkOfMultikey(PUBLIC_MULTIBASE);
const seed = decodeMultibaseBase58btc(PRIVATE_MULTIBASE);

function keys() {
  if (publicJwk === undefined || seed === undefined) throw new Error('bad test key');
  // 0x80 0x26 is the multicodec prefix of ed25519-priv; the 32 bytes after it are the seed.
  expect([seed[0], seed[1], seed.length]).toEqual([0x80, 0x26, 34]);
  const d = Buffer.from(seed.subarray(2)).toString('base64url');
  const privateKey = createPrivateKey({ key: { ...publicJwk, d } as never, format: 'jwk' });
  const publicKey = createPublicKey({ key: publicJwk as never, format: 'jwk' });
  return { privateKey, publicKey };
}

describe('eddsa-jcs-2022 (W3C vc-di-eddsa test vectors)', () => {
  it('hashes the proof configuration and the document as the spec does', () => {
    expect(Buffer.from(eddsaJcs2022HashData(unsigned, proofConfig)).toString('hex')).toBe(
      COMBINED_HASH,
    );
  });

  it('creates the test vector proof, byte for byte', () => {
    const { privateKey } = keys();
    const proof = createEddsaJcs2022Proof(
      unsigned,
      { verificationMethod: VM, created: '2023-02-24T23:36:38Z' },
      privateKey,
    );
    expect(proof).toEqual({ ...proofConfig, proofValue: PROOF_VALUE });
  });

  it('verifies the signed credential of the test vectors, and refuses a changed one', () => {
    const { publicKey } = keys();
    const signed = { ...unsigned, proof: { ...proofConfig, proofValue: PROOF_VALUE } };
    expect(eddsaJcs2022Problem(signed, publicKey)).toBeUndefined();
    expect(eddsaJcs2022Problem({ ...signed, name: 'Forged Credential' }, publicKey)).toMatch(
      /does not verify/,
    );
    const otherPurpose = { ...signed, proof: { ...signed.proof, proofPurpose: 'authentication' } };
    expect(eddsaJcs2022Problem(otherPurpose, publicKey)).toMatch(/does not verify/);
    const otherContext = { ...signed, '@context': ['https://www.w3.org/ns/credentials/v2'] };
    expect(eddsaJcs2022Problem(otherContext, publicKey)).toMatch(/@context/);
    const badValue = { ...signed, proof: { ...signed.proof, proofValue: 'u' + PROOF_VALUE } };
    expect(eddsaJcs2022Problem(badValue, publicKey)).toMatch(/base58btc/);
  });
});

describe('Multikey and the RFC 7638 thumbprint', () => {
  it('round-trips an Ed25519 publicKeyMultibase (z6Mk…, multicodec 0xed 0x01)', () => {
    if (publicJwk === undefined) throw new Error('bad test key');
    expect(ed25519Multikey(publicJwk)).toBe(PUBLIC_MULTIBASE);
    expect(ed25519JwkOfMultikey('z' + PUBLIC_MULTIBASE.slice(2))).toBeUndefined();
    expect(ed25519JwkOfMultikey(PUBLIC_MULTIBASE.slice(1))).toBeUndefined();
  });

  it('computes the thumbprint of RFC 7638 §3.1 over {crv,kty,x}', () => {
    // RFC 8037 Appendix A.3: the thumbprint of its Ed25519 example key.
    const rfc8037 = {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
    };
    expect(ed25519Thumbprint(rfc8037)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
    expect(ed25519Thumbprint(rfc8037)).toHaveLength(43);
  });
});
