/**
 * Publishing our own DID document: the route serving it at the path its DID names
 * (`/.well-known/did.json` for a bare host DID), for `serve(agent, { routes })` or
 * `createA2AHandler(server, { routes })`, and a card service entry pointing at the card.
 */
import type { HttpHandler } from '../http/types.js';
import type { DidDocument } from './document.js';
import { didDocumentPath } from './identifier.js';

/** `{ [path]: handler }` serving `document` (GET/HEAD, `application/did+json`, cached 5 min). */
export function didDocumentRoutes(document: DidDocument): Record<string, HttpHandler> {
  const body = JSON.stringify(document);
  const path = didDocumentPath(document.id);
  return {
    [path]: (req) =>
      Promise.resolve(
        req.method === 'GET' || req.method === 'HEAD'
          ? {
              status: 200,
              headers: {
                'content-type': 'application/did+json',
                'cache-control': 'public, max-age=300',
              },
              body: req.method === 'HEAD' ? undefined : body,
            }
          : { status: 405, headers: { allow: 'GET, HEAD' }, body: undefined },
      ),
  };
}
