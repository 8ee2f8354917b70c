/**
 * Service parameters carried in HTTP headers (spec §3.2.6, §9.2, §11.2): `A2A-Version` and
 * `A2A-Extensions`. Parsing is cheap string work, no regexes built per request.
 */
import { A2AError, boundText } from '../core/errors.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import type { OperationName } from '../core/operations.js';
import type { HttpRequest } from './types.js';

/** The versions this server speaks, as advertised in errors and cards. */
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

const VERSION_PARAM = 'a2a-version';
const PATCH = /^\d+$/;

/**
 * The requested protocol version: the `A2A-Version` header, else, on a GET or HEAD, the
 * `A2A-Version` query parameter; `''` when neither is present. Spec §3.6.1 lets clients send the
 * version as a request parameter (its example is a GET, requirement 29 of test/conformance/requirements.ts) while §9.2 and §11.2 say
 * service parameters MUST travel as HTTP headers: a request that changes state must carry the
 * header, which a web page cannot add cross-site without a CORS preflight.
 */
export function requestedVersion(req: HttpRequest, query: string): string {
  const header = req.headers.get('a2a-version');
  if (header !== null) return header.trim();
  if (query === '' || (req.method !== 'GET' && req.method !== 'HEAD')) return '';
  if (!query.toLowerCase().includes(VERSION_PARAM)) return '';
  // Parameter names are case-insensitive like header names (spec §3.2.6).
  for (const [name, value] of new URLSearchParams(query)) {
    if (name.toLowerCase() === VERSION_PARAM) return value.trim();
  }
  return '';
}

/** True for `1.0` and `1.0.<patch>`: patch numbers never affect negotiation (spec §3.6). */
export function isSupportedVersion(version: string): boolean {
  if (version === PROTOCOL_VERSION) return true;
  if (!version.startsWith(`${PROTOCOL_VERSION}.`)) return false;
  return PATCH.test(version.slice(PROTOCOL_VERSION.length + 1));
}

/**
 * The VersionNotSupported error for `version`, or undefined when it is served. A missing or empty
 * version means 0.3 (spec §3.6.2, requirement 33 of test/conformance/requirements.ts), which only
 * the 0.3 bindings serve (`compat: ['0.3']`).
 */
export function versionError(version: string): A2AError | undefined {
  if (isSupportedVersion(version)) return undefined;
  const asked =
    version === '' ? 'no A2A-Version (which means 0.3)' : `A2A-Version ${boundText(version, 64)}`;
  return new A2AError(
    'VERSION_NOT_SUPPORTED',
    `Protocol version not supported: the request carries ${asked}; this server supports ` +
      `${SUPPORTED_VERSIONS.join(', ')}. Send the header "A2A-Version: ${PROTOCOL_VERSION}".`,
    { metadata: { requestedVersion: version, supportedVersions: SUPPORTED_VERSIONS.join(',') } },
  );
}

/** The extension URIs of the `A2A-Extensions` header (comma-separated, spec §4.6.1), if any. */
export function requestedExtensions(req: HttpRequest): string[] | undefined {
  const header = req.headers.get('a2a-extensions');
  if (header === null) return undefined;
  const uris: string[] = [];
  for (const part of header.split(',')) {
    const uri = part.trim();
    if (uri !== '' && !uris.includes(uri)) uris.push(uri);
  }
  return uris.length > 0 ? uris : undefined;
}

/**
 * Adds the `A2A-Extensions` response header listing the activated extensions, when there are any
 * (topics/extensions: the agent SHOULD echo what it activated; requirement 235 of test/conformance/requirements.ts).
 */
export function addExtensionsHeader(
  headers: Record<string, string>,
  activated: readonly string[] | undefined,
): Record<string, string> {
  if (activated !== undefined && activated.length > 0)
    headers['a2a-extensions'] = activated.join(', ');
  return headers;
}

/**
 * The parameters of operation `name` with the SSE `Last-Event-ID` of a reconnecting
 * SubscribeToTask added (`SubscribeToTaskParams.lastEventId`); other operations unchanged.
 */
export function withLastEventId<P extends object>(
  name: OperationName,
  params: P,
  req: HttpRequest,
): P {
  if (name !== 'SubscribeToTask') return params;
  const lastEventId = req.headers.get('last-event-id');
  return lastEventId === null ? params : { ...params, lastEventId };
}
