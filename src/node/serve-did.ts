/**
 * serve()'s `did` option: the agent's own did:wba identity. Its DID document is published at the
 * path the DID names (`/.well-known/did.json` for a bare host DID), and push deliveries are
 * signed with it (RFC 9421, next to the JWT). The DID defaults to the one of the served https
 * URL (`didWbaForUrl`), known once the server listens. With `profile: 'e1'` the DID ends with
 * the `e1_` fingerprint of the key and the document carries its `eddsa-jcs-2022` proof.
 * docs/trust.md has the guide.
 */
import { e1DidOf } from '../did/e1.js';
import { didDocumentRoutes } from '../did/publish.js';
import { didWbaForUrl } from '../did/identifier.js';
import {
  didDocumentOf,
  didIdentity,
  type DidIdentity,
  type DidPrivateJwk,
} from '../did/identity.js';
import type { HttpHandler } from '../http/types.js';
import type { PushRequestSigner } from '../push/worker.js';

/** Options of `serve({ did })`. */
export interface ServeDidOptions {
  /** The private key (`a2a did init --out FILE` writes one; `generateDidKey()` makes one). */
  readonly key: DidPrivateJwk;
  /**
   * The DID (default: the DID of the served https URL, e.g. `did:wba:agent.example.com`). With
   * `profile: 'e1'`, the path DID the `e1_` segment is added to (`did:wba:host:agents:quote`),
   * unless it already ends with one.
   */
  readonly did?: string | undefined;
  /**
   * `e1`: ANP's `e1_` path profile (an Ed25519 key, a DID that carries its thumbprint, a signed
   * document). Needs a path DID: give `did`, or a `publicUrl` with a path.
   */
  readonly profile?: 'e1' | undefined;
  /** Fragment of the key in the document (default `key-1`). */
  readonly keyFragment?: string | undefined;
  /** Sign push deliveries with it (default true). */
  readonly signPush?: boolean | undefined;
}

/** The agent's identity once its URL is known, and the signer push deliveries use. */
export class ServedDid {
  private current: DidIdentity | undefined;

  constructor(private readonly options: ServeDidOptions) {
    // A fixed DID is checked at once, so a bad one fails before anything listens.
    if (options.did !== undefined) this.current = this.identityFor(options.did);
  }

  /** The identity (after {@link publish}). */
  get identity(): DidIdentity | undefined {
    return this.current;
  }

  /** Signs one push delivery as the agent; undefined when `signPush` is false. */
  get requestSigner(): PushRequestSigner | undefined {
    if (this.options.signPush === false) return undefined;
    return async (request) => {
      const identity = this.current;
      if (identity === undefined)
        throw new Error('the agent DID is not known before serve() listens');
      const { signRequest } = await import('../did/sign.js');
      return signRequest(identity, request);
    };
  }

  /** The identity for the served `url`, and the route publishing its document. */
  publish(url: string): Record<string, HttpHandler> {
    this.current ??= this.identityFor(didWbaForUrl(url));
    return didDocumentRoutes(didDocumentOf(this.current));
  }

  private identityFor(base: string): DidIdentity {
    const did =
      this.options.profile === 'e1' && !/:e1_[^:]*$/.test(base)
        ? e1DidOf(base, this.options.key)
        : base;
    return didIdentity({
      did,
      privateJwk: this.options.key,
      keyFragment: this.options.keyFragment,
    });
  }
}
