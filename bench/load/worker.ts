/**
 * The load generator process: runs one measurement at a time for the orchestrator (wrk or
 * autocannon, the SSE loop, the client loop), on its own core.
 */
import { serveRpc } from '../ipc.js';
import { clientLoad, type ClientLoadSpec } from './client-load.js';
import { httpLoad, type HttpLoadSpec } from './http-load.js';
import { closeStreams, openStreams } from './open-streams.js';
import type { Binding } from './requests.js';
import { streamLoad, type StreamLoadSpec } from './sse-load.js';

serveRpc({
  http: (spec: HttpLoadSpec) => httpLoad(spec),
  streams: (spec: StreamLoadSpec) => streamLoad(spec),
  client: (spec: ClientLoadSpec) => clientLoad(spec),
  open: (spec: { url: string; binding: Binding; count: number }) => openStreams(spec),
  close: () => closeStreams(),
});
