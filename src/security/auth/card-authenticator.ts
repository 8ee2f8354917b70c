/**
 * The authenticator that enforces what the card declares (spec §7.4, requirement 194 of test/conformance/requirements.ts): each
 * scheme of `securitySchemes` verified as the application configures it, `securityRequirements`
 * decided with OpenAPI semantics, and per-skill requirements for requests that name a skill.
 * Misconfiguration fails at start-up, never open at request time.
 */
import type { AgentCard, SecurityRequirement } from '../../core/schemas/index.js';
import { httpSchemeOf, type NamedScheme } from './challenge.js';
import { jwtVerifier, type JwtOptions } from './jwt.js';
import { authorize, decide, type DecisionContext } from './requirements.js';
import type {
  AuthBinding,
  AuthFailure,
  AuthOutcome,
  Authenticator,
  AuthRequest,
  Principal,
} from './types.js';
import {
  apiKeyVerifier,
  basicVerifier,
  bearerVerifier,
  httpVerifier,
  mtlsVerifier,
  type ApiKeyVerify,
  type BasicVerify,
  type BearerVerify,
  type CertificateVerify,
  type HttpVerify,
  type SchemeCheck,
  type SchemeVerifier,
} from './verifiers.js';

/** How one card scheme is verified; the variant must fit the scheme's declared type. */
export type SchemeSetup =
  /** apiKeySecurityScheme: the key from the declared header, query parameter or cookie. */
  | { readonly apiKey: ApiKeyVerify }
  /** httpAuthSecurityScheme `Bearer`, oauth2, openIdConnect: an opaque token. */
  | { readonly bearer: BearerVerify }
  /** httpAuthSecurityScheme `Basic`. */
  | { readonly basic: BasicVerify }
  /** httpAuthSecurityScheme with another scheme name. */
  | { readonly http: HttpVerify }
  /** oauth2, openIdConnect, or httpAuthSecurityScheme `Bearer`: a JWT checked against a JWKS. */
  | { readonly jwt: JwtOptions }
  /** mtlsSecurityScheme: `true` (principal = certificate subject) or a mapping function. */
  | { readonly mtls: true | CertificateVerify }
  /** Any scheme: a verifier of your own. */
  | { readonly verifier: SchemeVerifier };

/** Options of {@link CardAuthenticator}. */
export interface CardAuthOptions {
  /** Verification of each scheme named in `securitySchemes`, by the same name. */
  readonly schemes: Readonly<Record<string, SchemeSetup>>;
  /** `realm` of the challenges (default `a2a`). */
  readonly realm?: string | undefined;
}

/** The part of the card that declares security. */
export type SecurityDeclarations = Pick<
  AgentCard,
  'securitySchemes' | 'securityRequirements' | 'skills'
>;

/** Enforces the card's security declarations. */
export class CardAuthenticator implements Authenticator {
  private readonly verifiers = new Map<string, SchemeVerifier>();
  private readonly named = new Map<string, NamedScheme>();
  private readonly requirements: readonly SecurityRequirement[];
  private readonly skills = new Map<string, readonly SecurityRequirement[]>();
  private readonly realm: string;

  constructor(card: SecurityDeclarations, options: CardAuthOptions) {
    this.realm = options.realm ?? 'a2a';
    const declared = card.securitySchemes ?? {};
    for (const [name, scheme] of Object.entries(declared)) this.named.set(name, { name, scheme });
    this.requirements = card.securityRequirements ?? [];
    for (const skill of card.skills ?? []) {
      if (skill.securityRequirements?.length) this.skills.set(skill.id, skill.securityRequirements);
    }
    const used = [this.requirements, ...this.skills.values()].flatMap((list) =>
      list.flatMap((r) => Object.keys(r.schemes ?? {})),
    );
    for (const name of used) {
      if (!this.named.has(name)) {
        throw new TypeError(
          `a security requirement names scheme '${name}', which securitySchemes does not declare`,
        );
      }
    }
    for (const [name, setup] of Object.entries(options.schemes)) {
      const scheme = this.named.get(name);
      if (scheme === undefined) {
        throw new TypeError(`auth.schemes.${name} configures a scheme the card does not declare`);
      }
      this.verifiers.set(name, verifierFor(scheme, setup));
    }
    for (const name of new Set(used)) {
      if (!this.verifiers.has(name)) {
        throw new TypeError(
          `the card requires scheme '${name}' but auth.schemes.${name} does not say how to verify it`,
        );
      }
    }
  }

  /** True when some skill declares its own requirements. */
  get hasSkillRequirements(): boolean {
    return this.skills.size > 0;
  }

  /**
   * Fetches what the verifiers need ahead of the first request (a JWT issuer's metadata and
   * keys); resolves to one message per scheme that could not, for a start-up warning.
   */
  async warmUp(): Promise<string[]> {
    const results = await Promise.all(
      [...this.verifiers].map(async ([name, verifier]) => {
        try {
          await verifier.warmUp?.();
          return undefined;
        } catch (error) {
          return `scheme '${name}': ${error instanceof Error ? error.message : String(error)}`;
        }
      }),
    );
    return results.filter((r): r is string => r !== undefined);
  }

  /** Checks every configured scheme once, then decides the card-level requirements. */
  async authenticate(request: AuthRequest): Promise<AuthOutcome> {
    const entries = await Promise.all(
      [...this.verifiers].map(
        async ([name, verifier]) => [name, await verifier.check(request)] as const,
      ),
    );
    const checks = new Map<string, SchemeCheck>(entries);
    return decide(this.requirements, checks, this.context(request.binding));
  }

  /** The refusal for a call to skill `skillId` (its own requirements), or undefined when allowed. */
  authorizeSkill(
    skillId: string,
    principal: Principal | undefined,
    binding: AuthBinding,
  ): AuthFailure | undefined {
    const requirements = this.skills.get(skillId);
    if (requirements === undefined) return undefined;
    const failure = authorize(requirements, principal, this.context(binding));
    return failure && { ...failure, message: `skill '${skillId}': ${failure.message}` };
  }

  private context(binding: AuthBinding): DecisionContext {
    return { schemes: this.named, realm: this.realm, binding };
  }
}

/** The verifier of `setup`, checked against the declared type of `scheme`. */
function verifierFor({ name, scheme }: NamedScheme, setup: SchemeSetup): SchemeVerifier {
  const http = httpSchemeOf(scheme);
  const mismatch = (want: string) =>
    new TypeError(
      `auth.schemes.${name}: scheme '${name}' is ${describe(scheme)}; configure ${want}`,
    );
  if ('verifier' in setup) return setup.verifier;
  if (scheme.apiKeySecurityScheme) {
    if (!('apiKey' in setup)) throw mismatch('{ apiKey }');
    const { location, name: key } = scheme.apiKeySecurityScheme;
    return apiKeyVerifier(location, key, setup.apiKey);
  }
  if (scheme.mtlsSecurityScheme) {
    if (!('mtls' in setup)) throw mismatch('{ mtls }');
    return mtlsVerifier(setup.mtls === true ? undefined : setup.mtls);
  }
  if (http === 'Bearer') {
    if ('jwt' in setup) {
      const metadata =
        scheme.openIdConnectSecurityScheme?.openIdConnectUrl ??
        scheme.oauth2SecurityScheme?.oauth2MetadataUrl;
      return jwtVerifier(setup.jwt, metadata);
    }
    if ('bearer' in setup) return bearerVerifier(setup.bearer);
    throw mismatch('{ jwt } or { bearer }');
  }
  if (http !== undefined && http.toLowerCase() === 'basic') {
    if (!('basic' in setup)) throw mismatch('{ basic }');
    return basicVerifier(setup.basic);
  }
  if (http !== undefined && 'http' in setup) return httpVerifier(http, setup.http);
  throw mismatch('{ http }');
}

function describe(scheme: NamedScheme['scheme']): string {
  if (scheme.apiKeySecurityScheme) return 'an API key scheme';
  if (scheme.mtlsSecurityScheme) return 'a mutual TLS scheme';
  if (scheme.oauth2SecurityScheme) return 'an OAuth 2 scheme';
  if (scheme.openIdConnectSecurityScheme) return 'an OpenID Connect scheme';
  return `an HTTP ${scheme.httpAuthSecurityScheme?.scheme ?? ''} scheme`;
}
