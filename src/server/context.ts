/** The per-call context every operation receives from its binding. */

/** The authenticated caller (filled by authentication; anonymous when absent). */
export interface Principal {
  /** Stable identifier: tasks and push configs belong to it. */
  readonly id: string;
  readonly [claim: string]: unknown;
}

/** What a binding knows about one call, beyond its parameters. */
export interface CallContext {
  /** The tenant of the request (REST `/{tenant}` prefix, or the `tenant` field). */
  tenant?: string | undefined;
  /** The authenticated caller, if any. */
  principal?: Principal | undefined;
  /** Extension URIs the client asked to activate (`A2A-Extensions`). */
  requestedExtensions?: readonly string[] | undefined;
  /** Filled by the server: the extensions it activated, for the `A2A-Extensions` reply header. */
  activatedExtensions?: string[] | undefined;
  /** SSE `Last-Event-ID` of a reconnecting stream (SubscribeToTask). */
  lastEventId?: string | undefined;
  /** Aborted when the caller goes away; never cancels a task (spec §3.5.2). */
  signal?: AbortSignal | undefined;
}
