/**
 * Route matching and query parsing of the HTTP+JSON binding (spec §11.3, §11.5). Templates from
 * REST_ROUTES are compiled once at load; a request costs one split and a few string compares.
 */
import { A2AError } from '../../core/errors.js';
import { camelCase } from '../../core/schemas/index.js';
import { BOOLEAN_QUERY_PARAMS, REST_ROUTES, type RestRoute } from './wire.js';

/** A route matched by verb and path, with its path-bound fields and the `/{tenant}` prefix. */
export interface RouteMatch {
  readonly kind: 'match';
  readonly route: RestRoute;
  readonly fields: Record<string, string>;
  readonly tenant: string | undefined;
}

/** The outcome of routing: a match, a known path with another verb (405), or nothing (404). */
export type RouteResult =
  | RouteMatch
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' };

type SegmentMatcher = { literal: string } | { field: string; suffix: string };

interface Template {
  readonly segments: readonly SegmentMatcher[];
  /** Verb → route: SubscribeToTask shares its template between GET (the proto's HTTP rule) and POST (spec §11.3.2). */
  readonly byMethod: Map<string, RestRoute>;
}

/** Templates grouped by segment count, each group in REST_ROUTES order (first match wins). */
const TEMPLATES = compile(REST_ROUTES);
const NOT_FOUND: RouteResult = { kind: 'not-found' };

function compile(routes: readonly RestRoute[]): Map<number, Template[]> {
  const byPath = new Map<string, Template>();
  const groups = new Map<number, Template[]>();
  for (const route of routes) {
    let template = byPath.get(route.path);
    if (template === undefined) {
      const segments = route.path.slice(1).split('/').map(compileSegment);
      template = { segments, byMethod: new Map() };
      byPath.set(route.path, template);
      const group = groups.get(segments.length) ?? [];
      group.push(template);
      groups.set(segments.length, group);
    }
    template.byMethod.set(route.method, route);
  }
  return groups;
}

function compileSegment(segment: string): SegmentMatcher {
  if (!segment.startsWith('{')) return { literal: segment };
  const close = segment.indexOf('}');
  return { field: segment.slice(1, close), suffix: segment.slice(close + 1) };
}

/**
 * Routes `method` + `path` (relative to the REST base, starting with `/`). The plain route wins;
 * otherwise the first segment is taken as the tenant (spec §11.3: every route also exists under
 * `/{tenant}`). Throws INVALID_PARAMS for malformed percent-encoding.
 */
export function matchRoute(method: string, path: string): RouteResult {
  const segments = path.split('/');
  segments.shift(); // the empty string before the leading slash
  const plain = matchTemplate(segments);
  if (plain !== undefined) {
    const route = plain.template.byMethod.get(method);
    if (route !== undefined)
      return { kind: 'match', route, fields: plain.fields, tenant: undefined };
  }
  const first = segments[0];
  if (first !== undefined && first !== '' && segments.length > 1) {
    const tenanted = matchTemplate(segments.slice(1));
    const route = tenanted?.template.byMethod.get(method);
    if (tenanted !== undefined && route !== undefined) {
      return { kind: 'match', route, fields: tenanted.fields, tenant: decodeSegment(first) };
    }
    if (plain === undefined && tenanted !== undefined) return notAllowed(tenanted.template);
  }
  return plain === undefined ? NOT_FOUND : notAllowed(plain.template);
}

function notAllowed(template: Template): RouteResult {
  return { kind: 'method-not-allowed', allow: [...template.byMethod.keys()] };
}

function matchTemplate(
  segments: readonly string[],
): { template: Template; fields: Record<string, string> } | undefined {
  const candidates = TEMPLATES.get(segments.length);
  if (candidates === undefined) return undefined;
  outer: for (const template of candidates) {
    let fields: Record<string, string> | undefined;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      const matcher = template.segments[i] as SegmentMatcher;
      if ('literal' in matcher) {
        if (segment !== matcher.literal) continue outer;
        continue;
      }
      const { suffix } = matcher;
      if (segment.length <= suffix.length || !segment.endsWith(suffix)) continue outer;
      fields ??= {};
      fields[matcher.field] = decodeSegment(segment.slice(0, segment.length - suffix.length));
    }
    return { template, fields: fields ?? {} };
  }
  return undefined;
}

/** Percent-decodes one path segment (RFC 3986); ids may contain any character once encoded. */
export function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new A2AError('INVALID_PARAMS', 'Invalid path: malformed percent-encoding', {
      fieldViolations: [
        { field: 'path', description: `malformed percent-encoding in "${segment}"` },
      ],
    });
  }
}

/**
 * Request fields from a query string (spec §11.5): camelCase (or snake_case) names, booleans as
 * `true`/`false`, numbers left as decimal strings for the schemas to read, fields named in
 * `repeated` taken from repeated keys and/or comma-separated values. `A2A-Version` is a service
 * parameter, not a field, and is skipped.
 */
export function queryFields(
  query: string,
  repeated: ReadonlySet<string> = NO_REPEATED_FIELDS,
): Record<string, unknown> {
  // No prototype: names such as `constructor` or `__proto__` are plain (ignored) fields.
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (query === '') return fields;
  for (const [rawName, value] of new URLSearchParams(query)) {
    if (rawName.toLowerCase() === 'a2a-version') continue;
    const name = camelCase(rawName);
    if (repeated.has(name)) {
      const list = (fields[name] as string[] | undefined) ?? [];
      for (const item of value.split(',')) if (item !== '') list.push(item);
      fields[name] = list;
      continue;
    }
    if (name in fields) throw invalidQuery(name, 'must be given only once');
    if (BOOLEAN_QUERY_PARAMS.has(name)) {
      if (value !== 'true' && value !== 'false')
        throw invalidQuery(name, 'must be "true" or "false"');
      fields[name] = value === 'true';
    } else {
      fields[name] = value;
    }
  }
  return fields;
}

/** No GET request of A2A 1.0 has a repeated field; the parameter exists for extensions. */
const NO_REPEATED_FIELDS: ReadonlySet<string> = new Set();

function invalidQuery(name: string, description: string): A2AError {
  return new A2AError('INVALID_PARAMS', `Invalid query parameter ${name}: ${description}`, {
    fieldViolations: [{ field: name, description }],
  });
}
