/**
 * The @a2a-js/sdk 1.3 bench server: the echo executor behind the SDK's Express handlers
 * (JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest), as its README deploys it.
 */
import type { AddressInfo } from 'node:net';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from '@a2a-js/sdk/server/express';
import express from 'express';
import { processStats, serveRpc } from '../ipc.js';
import { A2ajsEcho, a2ajsCard } from './a2ajs-agent.js';
import { releaseHolds } from './modes.js';

const requestHandler = new DefaultRequestHandler(
  a2ajsCard,
  new InMemoryTaskStore(),
  new A2ajsEcho(),
);
const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(
  '/a2a/jsonrpc',
  jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
);
app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));

serveRpc(
  {
    stats: (arg: { gc: boolean }) => processStats(arg.gc),
    release: () => releaseHolds(),
  },
  { port: (server.address() as AddressInfo).port },
);
