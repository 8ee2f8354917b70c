/** Extension activation (spec §4.6). */
import { A2AError } from '../core/errors.js';
import type { AgentExtension } from '../core/schemas/index.js';

/**
 * The requested extensions this agent supports (the activated set, echoed in `A2A-Extensions`);
 * throws EXTENSION_SUPPORT_REQUIRED when a `required` one was not requested, naming `header`
 * (0.3 callers send `X-A2A-Extensions`). Unsupported requests
 * are ignored, never mapped to another version (spec §4.6.3).
 */
export function activateExtensions(
  declared: readonly AgentExtension[],
  requested: readonly string[],
  header = 'A2A-Extensions',
): string[] {
  // The common case: nothing declared, nothing requested (no allocation on the hot path).
  if (declared.length === 0 || (requested.length === 0 && !declared.some((e) => e.required))) {
    return [];
  }
  const asked = new Set(requested);
  const missing = declared
    .filter((e) => e.required && e.uri && !asked.has(e.uri))
    .map((e) => e.uri);
  if (missing.length > 0) {
    throw new A2AError(
      'EXTENSION_SUPPORT_REQUIRED',
      `This agent requires the extension${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: send them in the ${header} header`,
      { metadata: { extensions: missing.join(',') } },
    );
  }
  return declared.filter((e) => e.uri && asked.has(e.uri)).map((e) => e.uri as string);
}
