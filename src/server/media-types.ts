/** Which media types an agent accepts (spec §3.1.1: others fail with CONTENT_TYPE_NOT_SUPPORTED). */
import { A2AError } from '../core/errors.js';
import type { AgentCard, Part } from '../core/schemas/index.js';

/** The media types the card accepts: defaultInputModes plus every skill's inputModes. */
export function acceptedInputModes(
  card: Pick<AgentCard, 'defaultInputModes' | 'skills'>,
): string[] {
  const modes = new Set(card.defaultInputModes.map(normalize));
  for (const skill of card.skills) for (const m of skill.inputModes ?? []) modes.add(normalize(m));
  return [...modes];
}

/** True when `mediaType` matches one of `accepted` (exact, `type/*` or `*\/*`). */
export function mediaTypeAccepted(mediaType: string, accepted: readonly string[]): boolean {
  const m = normalize(mediaType);
  const slash = m.indexOf('/');
  const wildcard = slash > 0 ? `${m.slice(0, slash)}/*` : m;
  return accepted.some((a) => a === m || a === '*/*' || a === wildcard);
}

/** The media type of a part: its `mediaType`, else what its kind implies (text, data). */
export function mediaTypeOf(part: Part): string | undefined {
  if (part.mediaType) return part.mediaType;
  if (part.text !== undefined) return 'text/plain';
  if (part.data !== undefined) return 'application/json';
  return undefined;
}

/** Throws CONTENT_TYPE_NOT_SUPPORTED for the first part the agent does not accept. */
export function checkParts(parts: readonly Part[], accepted: readonly string[]): void {
  for (const part of parts) {
    const type = mediaTypeOf(part);
    if (type !== undefined && !mediaTypeAccepted(type, accepted)) {
      throw new A2AError(
        'CONTENT_TYPE_NOT_SUPPORTED',
        `This agent does not accept ${type}; it accepts ${accepted.join(', ')}`,
        { metadata: { mediaType: type } },
      );
    }
  }
}

function normalize(mediaType: string): string {
  const semi = mediaType.indexOf(';');
  return (semi >= 0 ? mediaType.slice(0, semi) : mediaType).trim().toLowerCase();
}
