/**
 * Request media types of the JSON bindings: `application/json` and `application/a2a+json`
 * (spec §9.1, §11.1), parameters such as `charset` allowed. Every other type — `text/plain`, a
 * form, none at all — is one a web page can send cross-site without a CORS preflight, so it is
 * refused with UNSUPPORTED_MEDIA_TYPE (HTTP 415) before the body is read.
 */
import { A2AError } from '../core/errors.js';

/** `application/json`. */
export const JSON_TYPE = 'application/json';
/** `application/a2a+json` (spec §11.1, v1.0.1). */
export const A2A_JSON_TYPE = 'application/a2a+json';

/** `type/subtype` of a Content-Type value, lower-case, parameters (charset) dropped. */
export function mediaType(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** True for the two JSON media types, with any parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const type = mediaType(contentType);
  return type === JSON_TYPE || type === A2A_JSON_TYPE;
}

/** The refusal of a request whose Content-Type is `contentType` (null: none). */
export function unsupportedMediaType(contentType: string | null, preferred: string): A2AError {
  const other = preferred === JSON_TYPE ? A2A_JSON_TYPE : JSON_TYPE;
  const sent =
    contentType === null
      ? 'no Content-Type'
      : `Content-Type "${mediaType(contentType).slice(0, 100)}"`;
  return new A2AError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Unsupported request media type: the request has ${sent}; send the JSON body with "Content-Type: ${preferred}" (or ${other})`,
    { headers: { accept: `${preferred}, ${other}` } },
  );
}
