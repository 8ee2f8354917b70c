/**
 * Service parameters in gRPC metadata (spec §3.2.6, §10): `a2a-version` (required; patch ignored;
 * missing means 0.3), `a2a-extensions` (comma-separated URIs, echoed back as activated), and the
 * resume point of task streams: `last-event-id` in, `a2a-first-event-id` out.
 */
import { Metadata } from '@grpc/grpc-js';
import { A2AError, boundText } from '../../core/errors.js';
import { PROTOCOL_VERSION } from '../../core/interfaces.js';
import { isSupportedVersion, SUPPORTED_VERSIONS } from '../../http/service-params.js';
import type { OperationName } from '../../core/operations.js';
import { EXTENSIONS_KEY, FIRST_EVENT_ID_KEY, LAST_EVENT_ID_KEY, VERSION_KEY } from './wire.js';

/** All values of a metadata key as strings (binary values are ignored). */
function textValues(metadata: Metadata, key: string): string[] {
  return metadata.get(key).filter((v): v is string => typeof v === 'string');
}

/** The VersionNotSupported error for the call's `a2a-version`, or undefined when it is served. */
export function versionError(metadata: Metadata): A2AError | undefined {
  const version = (textValues(metadata, VERSION_KEY)[0] ?? '').trim();
  if (isSupportedVersion(version)) return undefined;
  const asked =
    version === '' ? 'no a2a-version (which means 0.3)' : `a2a-version ${boundText(version, 64)}`;
  return new A2AError(
    'VERSION_NOT_SUPPORTED',
    `Protocol version not supported: the call carries ${asked}; this server supports ` +
      `${SUPPORTED_VERSIONS.join(', ')}. Send the metadata "${VERSION_KEY}: ${PROTOCOL_VERSION}".`,
    { metadata: { requestedVersion: version, supportedVersions: SUPPORTED_VERSIONS.join(',') } },
  );
}

/** The extension URIs the client asked for, deduplicated, or undefined when none. */
export function requestedExtensions(metadata: Metadata): string[] | undefined {
  const uris: string[] = [];
  for (const value of textValues(metadata, EXTENSIONS_KEY)) {
    for (const part of value.split(',')) {
      const uri = part.trim();
      if (uri !== '' && !uris.includes(uri)) uris.push(uri);
    }
  }
  return uris.length > 0 ? uris : undefined;
}

/**
 * The parameters of operation `name` with the `last-event-id` of a reconnecting SubscribeToTask
 * added (`SubscribeToTaskParams.lastEventId`, as HTTP's `Last-Event-ID`); others unchanged.
 */
export function withLastEventId<P extends object>(
  name: OperationName,
  params: P,
  metadata: Metadata,
): P {
  if (name !== 'SubscribeToTask') return params;
  const lastEventId = textValues(metadata, LAST_EVENT_ID_KEY)[0];
  return lastEventId === undefined ? params : { ...params, lastEventId: lastEventId.trim() };
}

/**
 * Response metadata: the activated extensions (when any) and, on a task stream, the id of its
 * first event (FIRST_EVENT_ID_KEY).
 */
export function replyMetadata(call: {
  readonly activatedExtensions?: readonly string[] | undefined;
  readonly firstEventId?: string | undefined;
}): Metadata {
  const metadata = new Metadata();
  const activated = call.activatedExtensions;
  if (activated !== undefined && activated.length > 0) {
    metadata.set(EXTENSIONS_KEY, activated.join(', '));
  }
  if (call.firstEventId !== undefined) metadata.set(FIRST_EVENT_ID_KEY, call.firstEventId);
  return metadata;
}

/** Client metadata: `a2a-version`, then `headers` layered in order (later wins). */
export function requestMetadata(
  ...layers: (Readonly<Record<string, string>> | undefined)[]
): Metadata {
  const metadata = new Metadata();
  metadata.set(VERSION_KEY, PROTOCOL_VERSION);
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) metadata.set(key.toLowerCase(), value);
  }
  return metadata;
}
