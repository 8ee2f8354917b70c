/**
 * What a delivery sends, by the A2A version its config was registered over
 * (`StoredPushConfig.protocolVersion`): 1.0 a StreamResponse as `application/a2a+json` (spec
 * §4.3.3); 0.3 the bare Task or event with its `kind`, as `application/json` (0.3 spec §9.5, the
 * form 0.3 webhooks read whichever binding registered them). The outbox keeps the 1.0 body; the
 * 0.3 form is made when the delivery is sent, so every store serves both without a second copy.
 */
import type { StreamResponse } from '../core/schemas/index.js';
import { eventTo03 } from '../bindings/v03/convert.js';
import { V03_VERSION } from '../bindings/v03/wire.js';
import type { StoredPushConfig } from '../stores/types.js';

/** One delivery's body and content type. */
export interface PushPayload {
  readonly contentType: string;
  readonly body: string;
}

/** The payload of the 1.0 `body` (a StreamResponse as JSON) for `config`'s version. */
export function pushPayload(config: StoredPushConfig, body: string): PushPayload {
  if (config.protocolVersion === V03_VERSION) {
    const event = JSON.parse(body) as StreamResponse;
    return { contentType: 'application/json', body: JSON.stringify(eventTo03(event, 'jsonrpc')) };
  }
  return { contentType: 'application/a2a+json', body };
}
