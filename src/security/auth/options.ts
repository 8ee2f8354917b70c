/**
 * `auth` configuration of a server: verify the card's schemes (the default), or plug in an
 * authenticator of your own. Also how a request names the skill it targets, for skill-level
 * requirements (a request has no skill field; spec §4.4.5 leaves routing to the agent).
 */
import type { SendMessageRequest } from '../../core/schemas/index.js';
import {
  CardAuthenticator,
  type CardAuthOptions,
  type SchemeSetup,
  type SecurityDeclarations,
} from './card-authenticator.js';
import type { AuthBinding, AuthFailure, AuthOutcome, AuthRequest, Principal } from './types.js';

/** Names the skill a SendMessage / SendStreamingMessage request targets, if any. */
export type SkillSelector = (request: SendMessageRequest) => string | undefined;

/** Options of authentication (`serve(agent, { auth })`, `createA2AHandler(server, { auth })`). */
export interface AuthOptions {
  /** How to verify each scheme the card declares (see {@link SchemeSetup}). */
  readonly schemes?: Readonly<Record<string, SchemeSetup>> | undefined;
  /** `realm` of the `WWW-Authenticate` challenges (default `a2a`). */
  readonly realm?: string | undefined;
  /**
   * Your own authentication instead of the card's schemes: return the principal, `undefined`
   * for an anonymous caller, or an {@link AuthFailure} to refuse. Tasks belong to the principal.
   */
  readonly authenticate?:
    ((request: AuthRequest) => AuthOutcome | Promise<AuthOutcome>) | undefined;
  /**
   * The skill a message targets, so that skill's `securityRequirements` apply; required when a
   * skill declares requirements. Use the same rule as the agent's own routing.
   */
  readonly skillOf?: SkillSelector | undefined;
}

/** The authentication of one server, built once from the card and the options. */
export interface ServerAuthentication {
  authenticate(request: AuthRequest): Promise<AuthOutcome>;
  /** The refusal of a message to a skill with its own requirements, or undefined. */
  authorizeMessage(
    request: SendMessageRequest,
    principal: Principal | undefined,
    binding: AuthBinding,
  ): AuthFailure | undefined;
  /** Fetches verification keys ahead of time; one message per scheme that could not. */
  warmUp?(): Promise<string[]>;
}

/**
 * The authentication the card and options call for; undefined when the card declares no
 * requirements and nothing is configured (every caller is anonymous). Throws at start-up when the
 * card requires schemes that are not configured, so an agent never claims security it lacks.
 */
export function createServerAuthentication(
  card: SecurityDeclarations,
  options: AuthOptions = {},
): ServerAuthentication | undefined {
  const custom = options.authenticate;
  if (custom !== undefined) {
    if (options.schemes !== undefined) {
      throw new TypeError(
        "auth: give either `schemes` (the card's schemes) or `authenticate`, not both",
      );
    }
    return {
      authenticate: async (request) => custom(request),
      authorizeMessage: () => undefined,
    };
  }
  const declaresRequirements =
    (card.securityRequirements?.length ?? 0) > 0 ||
    (card.skills ?? []).some((s) => (s.securityRequirements?.length ?? 0) > 0);
  if (options.schemes === undefined && !declaresRequirements) return undefined;
  const cardOptions: CardAuthOptions = {
    schemes: options.schemes ?? {},
    ...(options.realm === undefined ? {} : { realm: options.realm }),
  };
  const authenticator = new CardAuthenticator(card, cardOptions);
  const skillOf = options.skillOf;
  if (authenticator.hasSkillRequirements && skillOf === undefined) {
    throw new TypeError(
      'a skill declares securityRequirements, but requests do not name a skill: set auth.skillOf ' +
        '(e.g. skillFromMetadata()) to the rule the agent routes by, or move them to the card',
    );
  }
  return {
    authenticate: (request) => authenticator.authenticate(request),
    warmUp: () => authenticator.warmUp(),
    authorizeMessage(request, principal, binding) {
      const skill = skillOf?.(request);
      return skill === undefined
        ? undefined
        : authenticator.authorizeSkill(skill, principal, binding);
    },
  };
}

/**
 * A {@link SkillSelector} reading a string at `metadata[key]` of the message, else of the
 * request (default key `skillId`): an a2a-kit convention, not part of the spec.
 */
export function skillFromMetadata(key = 'skillId'): SkillSelector {
  return (request) => {
    const value = request.message.metadata?.[key] ?? request.metadata?.[key];
    return typeof value === 'string' ? value : undefined;
  };
}
