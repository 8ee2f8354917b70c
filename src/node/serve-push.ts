/**
 * serve()'s `push` option: either the notifier's settings, from which serve() makes the notifier
 * on the served task store (the store is named once: `store`), or a notifier made with
 * `createPushNotifier()` (`{ notifier }`, as A2AServer takes it). Either way the card's
 * `capabilities.pushNotifications` follows (A2AServer sets it from the notifier), and a signer's
 * public keys are published at PUSH_JWKS_PATH for webhooks to verify deliveries (spec §13.2).
 */
import type { HttpHandler } from '../http/types.js';
import type { PushNotifierOptions } from '../push/notifier.js';
import type { PushSigner } from '../push/signing.js';
import type { A2AServerOptions } from '../server/a2a-server.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { TaskStore } from '../stores/types.js';

/** The notifier's settings (see `createPushNotifier`), without the store: serve() passes its own. */
export type ServePushOptions = Omit<PushNotifierOptions, 'store' | 'outbox' | 'configs'>;

/** A2AServer's `push` option (a notifier of your own). */
export type ServerPushOption = NonNullable<A2AServerOptions['push']>;

/** What serve() hands on: the server's store and push option, and the JWKS route to mount. */
export interface ServedPush {
  store: TaskStore | undefined;
  push: ServerPushOption | undefined;
  routes: Record<string, HttpHandler>;
}

/** Makes the notifier (when given settings) and the JWKS route (when there is a signer). */
export async function servedPush(
  push: ServePushOptions | ServerPushOption | undefined,
  store: TaskStore | undefined,
): Promise<ServedPush> {
  if (push === undefined) return { store, push: undefined, routes: {} };
  let server: ServerPushOption;
  let signer: PushSigner | undefined;
  if ('notifier' in push) {
    server = push;
    signer = (push.notifier as { signer?: PushSigner }).signer;
  } else {
    const { createPushNotifier } = await import('../push/notifier.js');
    // The default store is made here, so the notifier and the server share it.
    store ??= new MemoryTaskStore();
    if (!store.facets?.pushConfigs || !store.facets.pushOutbox) {
      throw new TypeError('serve({ push }): the task store keeps no push configs and no outbox');
    }
    server = { notifier: createPushNotifier({ ...push, store }) };
    signer = push.signer;
  }
  if (signer === undefined) return { store, push: server, routes: {} };
  const { PUSH_JWKS_PATH, createPushJwksHandler } = await import('../push/jwks.js');
  return { store, push: server, routes: { [PUSH_JWKS_PATH]: createPushJwksHandler(signer) } };
}
