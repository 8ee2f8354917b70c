/**
 * Security requirements with their OpenAPI meaning (spec §4.5): a list of requirements is OR, the
 * schemes inside one requirement are AND, and each scheme's `list` names the scopes (roles) it
 * must grant. Decides from the per-scheme checks of one request; no I/O here.
 */
import type { SecurityRequirement } from '../../core/schemas/index.js';
import {
  challengeFor,
  describeRequirement,
  type ChallengeError,
  type NamedScheme,
} from './challenge.js';
import {
  grantedScopes,
  type AuthBinding,
  type AuthenticatedPrincipal,
  type AuthFailure,
  type Principal,
} from './types.js';
import type { SchemeCheck } from './verifiers.js';
import { withFields } from '../../core/with-fields.js';

/** The schemes of a card by name, and how to phrase refusals. */
export interface DecisionContext {
  readonly schemes: ReadonlyMap<string, NamedScheme>;
  readonly realm: string;
  readonly binding: AuthBinding;
}

interface Needed {
  readonly name: string;
  readonly scopes: readonly string[];
}

/** The schemes of one requirement with their required scopes, in card order. */
function entriesOf(requirement: SecurityRequirement): Needed[] {
  return Object.entries(requirement.schemes ?? {}).map(([name, list]) => ({
    name,
    scopes: list.list ?? [],
  }));
}

/** Scopes in `required` that `granted` lacks. */
function missingScopes(required: readonly string[], granted: readonly string[]): string[] {
  return required.filter((scope) => !granted.includes(scope));
}

/** The principal of a satisfied request: identity from `identity`, every passed scheme's scopes. */
export function principalOf(
  identity: string,
  checks: ReadonlyMap<string, SchemeCheck>,
): AuthenticatedPrincipal | undefined {
  const first = checks.get(identity);
  if (first?.status !== 'ok') return undefined;
  const schemes: Record<string, readonly string[]> = {};
  for (const [name, check] of checks) {
    if (check.status === 'ok') schemes[name] = grantedScopes(check.principal);
  }
  return withFields(first.principal, { scheme: identity, schemes }) as AuthenticatedPrincipal;
}

/**
 * Decides a request: the principal of the first satisfied requirement, `undefined` when anonymous
 * access is allowed (no requirements, or an empty one) and no credential was sent, else a refusal:
 * 503 when a credential that could decide cannot be checked now (its issuer is unreachable), 403
 * when some requirement's schemes all authenticated but lack scopes, 401 otherwise.
 */
export function decide(
  requirements: readonly SecurityRequirement[],
  checks: ReadonlyMap<string, SchemeCheck>,
  context: DecisionContext,
): AuthenticatedPrincipal | AuthFailure | undefined {
  const presented = [...checks].find(([, c]) => c.status === 'ok')?.[0];
  const invalid = [...checks].filter(([, c]) => c.status === 'invalid');
  const alternatives = requirements.map(entriesOf);
  if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) {
    // Anonymous access allowed; a credential that was sent must still be right.
    if (invalid.length > 0) {
      const sent = invalid.map(([name]) => [{ name, scopes: [] }]);
      return unauthenticated(sent, checks, context);
    }
    const unchecked = unavailable(checks);
    if (unchecked !== undefined) return unchecked;
    return presented === undefined ? undefined : principalOf(presented, checks);
  }
  for (const needed of alternatives) {
    const passed = needed.every(({ name, scopes }) => {
      const check = checks.get(name);
      return (
        check?.status === 'ok' && missingScopes(scopes, grantedScopes(check.principal)).length === 0
      );
    });
    const identity = needed[0]?.name;
    if (passed && identity !== undefined) return principalOf(identity, checks);
  }
  const unchecked = unavailable(checks);
  if (unchecked !== undefined) return unchecked;
  const scoped = alternatives.find((needed) =>
    needed.every(({ name }) => checks.get(name)?.status === 'ok'),
  );
  if (scoped !== undefined) return forbidden(scoped, (name) => grantsOf(checks.get(name)), context);
  return unauthenticated(alternatives, checks, context);
}

/**
 * Checks a principal against further requirements (a skill's) using the scopes its schemes
 * granted at authentication; undefined when one requirement is met.
 */
export function authorize(
  requirements: readonly SecurityRequirement[],
  principal: Principal | undefined,
  context: DecisionContext,
): AuthFailure | undefined {
  const alternatives = requirements.map(entriesOf);
  if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return undefined;
  const granted = (principal as Partial<AuthenticatedPrincipal> | undefined)?.schemes ?? {};
  const has = (name: string) => Object.hasOwn(granted, name);
  for (const needed of alternatives) {
    if (
      needed.every(
        (n) => has(n.name) && missingScopes(n.scopes, granted[n.name] ?? []).length === 0,
      )
    )
      return undefined;
  }
  const scoped = alternatives.find((needed) => needed.every((n) => has(n.name)));
  if (scoped !== undefined) return forbidden(scoped, (name) => granted[name] ?? [], context);
  return unauthenticated(alternatives, new Map(), context);
}

/** The 503 refusal when some credential could not be checked now, else undefined. */
function unavailable(checks: ReadonlyMap<string, SchemeCheck>): AuthFailure | undefined {
  const waiting = [...checks].flatMap(([name, c]) =>
    c.status === 'unavailable' ? [{ name, check: c }] : [],
  );
  if (waiting.length === 0) return undefined;
  const reasons = waiting.map(({ name, check }) => `scheme '${name}': ${check.reason}`);
  return {
    failure: 'UNAVAILABLE',
    message: `the credentials cannot be checked now, retry later: ${reasons.join('; ')}`,
    challenges: [],
    retryAfterSeconds: Math.min(...waiting.map(({ check }) => check.retryAfterSeconds)),
  };
}

function grantsOf(check: SchemeCheck | undefined): readonly string[] {
  return check?.status === 'ok' ? grantedScopes(check.principal) : [];
}

function forbidden(
  needed: readonly Needed[],
  granted: (name: string) => readonly string[],
  context: DecisionContext,
): AuthFailure {
  const lacking = needed
    .map((n) => ({ ...n, missing: missingScopes(n.scopes, granted(n.name)) }))
    .filter((n) => n.missing.length > 0);
  const parts = lacking.map(
    (n) =>
      `scheme '${n.name}' needs scope ${n.missing.join(' ')} (granted: ${granted(n.name).join(' ') || 'none'})`,
  );
  const challenges = lacking.flatMap((n) => {
    const scheme = context.schemes.get(n.name);
    const error: ChallengeError = {
      code: 'insufficient_scope',
      description: `needs ${n.missing.join(' ')}`,
    };
    const challenge = scheme && challengeFor(scheme, context.realm, n.scopes, error);
    return challenge ? [challenge] : [];
  });
  return {
    failure: 'PERMISSION_DENIED',
    message: `insufficient scope: ${parts.join('; ')}`,
    challenges,
  };
}

function unauthenticated(
  alternatives: readonly (readonly Needed[])[],
  checks: ReadonlyMap<string, SchemeCheck>,
  context: DecisionContext,
): AuthFailure {
  const described = alternatives
    .filter((needed) => needed.length > 0)
    .map((needed) =>
      needed
        .map((n) => {
          const scheme = context.schemes.get(n.name);
          return scheme
            ? describeRequirement(scheme, n.scopes, context.binding)
            : `scheme '${n.name}'`;
        })
        .join(' and '),
    );
  const requires =
    described.length === 1
      ? `this agent requires ${described[0] ?? ''}`
      : `this agent requires one of: ${described.join('; or ')}`;
  const rejected = [...checks].flatMap(([name, c]) =>
    c.status === 'invalid' ? [`the credential for scheme '${name}' was rejected: ${c.reason}`] : [],
  );
  const message =
    rejected.length > 0 ? `${rejected.join('; ')}. ${capitalize(requires)}` : requires;
  const seen = new Set<string>();
  const challenges: string[] = [];
  for (const needed of alternatives) {
    for (const n of needed) {
      const scheme = context.schemes.get(n.name);
      if (seen.has(n.name) || scheme === undefined) continue;
      seen.add(n.name);
      const check = checks.get(n.name);
      const error: ChallengeError | undefined =
        check?.status === 'invalid'
          ? { code: 'invalid_token', description: check.reason }
          : undefined;
      const challenge = challengeFor(scheme, context.realm, n.scopes, error);
      if (challenge !== undefined) challenges.push(challenge);
    }
  }
  return { failure: 'UNAUTHENTICATED', message, challenges };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
