/**
 * `a2a did init`: a did:wba identity: a new private key (with its DID) to a file, and the DID
 * document to publish at the path the DID names; `--profile e1` makes an ANP `e1_` DID (the
 * key's thumbprint appended to the path DID, the document signed). `a2a did show`: the document
 * of a saved key (an `e1_` document is signed afresh).
 */
import { e1DidOf } from '../../did/e1.js';
import { writeFile } from 'node:fs/promises';
import { didDocumentOf, didIdentity, generateDidKey } from '../../did/identity.js';
import { didDocumentPath, parseDidWba } from '../../did/identifier.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { loadDidIdentity } from '../did-identity.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { stringFlag } from '../options.js';
import { noExtraArgs } from '../task-helpers.js';

const NOTES = [
  'A did:wba DID names where its document lives: did:wba:example.com is',
  'https://example.com/.well-known/did.json; did:wba:example.com:user:alice is',
  'https://example.com/user/alice/did.json; a port is written %3A (did:wba:localhost%3A8443).',
  'Publish the document there over HTTPS, then sign calls with --did-key FILE on any verb.',
  '--profile e1 (ANP did:wba v1.1 e1_ path profile): the DID becomes <path DID>:e1_<thumbprint of',
  'the Ed25519 key>, and the document carries its eddsa-jcs-2022 proof, which verifiers require.',
];

/** The `did init` verb. */
export const didInitCommand: Command = {
  name: 'did init',
  summary: 'create a did:wba identity: private key to a file, DID document to publish',
  usage: [
    'did init --did <did:wba:host[:path…]> --out <key.jwk> [--document did.json] [--key-type Ed25519|P-256] [--profile e1]',
  ],
  flags: {
    out: { type: 'string' },
    document: { type: 'string' },
    'key-type': { type: 'string' },
    profile: { type: 'string' },
  },
  flagHelp: [
    ['--did DID', 'the DID, e.g. did:wba:agents.example.com:user:alice'],
    ['--out FILE', 'where to write the private JWK (mode 0600; it records the DID too)'],
    ['--document FILE', 'where to write the DID document (default: stdout)'],
    ['--key-type TYPE', 'Ed25519 (default) or P-256'],
    ['--profile e1', 'an e1_ DID: --did is the path DID the key thumbprint is appended to'],
  ],
  examples: [
    'did init --did did:wba:agents.example.com:user:alice --out alice.jwk --document did.json',
    'did init --did did:wba:agents.example.com:user:alice --profile e1 --out alice.jwk',
    `send ${EXAMPLE_URL} hello --did-key alice.jwk   # every request signed (RFC 9421)`,
  ],
  notes: NOTES,
  async run({ positionals, values, global, out }) {
    noExtraArgs(positionals, 0);
    const given = global.did;
    const target = stringFlag(values, 'out');
    if (given === undefined) throw new UsageError('missing --did did:wba:…', NOTES[0]);
    if (target === undefined)
      throw new UsageError('missing --out <key.jwk>', 'the private key is never printed');
    const type = stringFlag(values, 'key-type') ?? 'Ed25519';
    if (type !== 'Ed25519' && type !== 'P-256')
      throw new UsageError(`unsupported --key-type ${type}`, 'use Ed25519 or P-256');
    const profile = stringFlag(values, 'profile');
    if (profile !== undefined && profile !== 'e1')
      throw new UsageError(`unsupported --profile ${profile}`, 'the one profile is e1');
    if (profile === 'e1' && type !== 'Ed25519')
      throw new UsageError('an e1_ DID binds an Ed25519 key', 'leave out --key-type');
    const privateJwk = generateDidKey(type);
    let did: string;
    try {
      parseDidWba(given);
      did = profile === 'e1' ? e1DidOf(given, privateJwk) : given;
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error), NOTES[0]);
    }
    const identity = didIdentity({ did, privateJwk });
    await writeFile(target, `${JSON.stringify({ ...privateJwk, did }, null, 2)}\n`, {
      mode: 0o600,
    });
    const document = didDocumentOf(identity);
    const where = `https://${parseDidWba(did).authority}${didDocumentPath(did)}`;
    const file = stringFlag(values, 'document');
    if (file === undefined) out.jsonDoc(document);
    else await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
    if (!out.json) {
      out.error(
        `DID ${did}: private key written to ${target}; publish the DID document at ${where}`,
      );
    }
    return EXIT.OK;
  },
};

/** The `did show` verb. */
export const didShowCommand: Command = {
  name: 'did show',
  summary: 'print the DID document of a did:wba key (to publish it again, or check it)',
  usage: ['did show --did-key <key.jwk> [--did DID]'],
  flags: {},
  flagHelp: [],
  examples: ['did show --did-key alice.jwk > did.json'],
  notes: NOTES,
  async run({ positionals, global, out }) {
    noExtraArgs(positionals, 0);
    if (global.didKey === undefined)
      throw new UsageError('missing --did-key <key.jwk>', 'make one with `a2a did init`');
    const identity = await loadDidIdentity(global.didKey, global.did);
    out.jsonDoc(didDocumentOf(identity));
    if (!out.json) {
      const where = `https://${parseDidWba(identity.did).authority}${didDocumentPath(identity.did)}`;
      out.error(`publish it at ${where}`);
    }
    return EXIT.OK;
  },
};
