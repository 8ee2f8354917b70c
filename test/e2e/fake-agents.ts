/**
 * Servers that are not the demo agent: a plain web server (not an A2A agent), a 0.3-only agent,
 * and an agent that wants a bearer token, so the CLI's error paths are tested for real.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running fake. */
export interface Fake {
  url: string;
  /** Requests seen, as `METHOD path` with their headers. */
  requests: { line: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, url: string) => void;

async function fake(handler: Handler): Promise<Fake> {
  const requests: Fake['requests'] = [];
  let base = '';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ line: `${req.method ?? ''} ${req.url ?? ''}`, headers: req.headers });
      handler(req, res, body, base);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** A web server with no Agent Card: 404 for the card, HTML for `/` and `/page.json`. */
export function plainWebServer(): Promise<Fake> {
  return fake((req, res) => {
    if (req.url === '/' || req.url === '/page.json') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body>Hello</body></html>');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
}

/** An agent whose card is 0.3-shaped (top-level url, protocolVersion 0.3). */
export function legacyAgent(): Promise<Fake> {
  return fake((_req, res, _body, url) =>
    json(res, 200, {
      name: 'Old agent',
      description: 'Speaks A2A 0.3 only',
      url: `${url}/a2a`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      version: '1.0.0',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
    }),
  );
}

/** The token {@link bearerAgent} accepts. */
export const SECRET = 'let-me-in';

/**
 * A JSON-RPC agent that declares a Bearer scheme and answers 401 (403 for a wrong token) unless
 * the request carries `Authorization: Bearer let-me-in`; then every SendMessage completes.
 */
export function bearerAgent(): Promise<Fake> {
  return fake((req, res, body, url) => {
    if (req.method === 'GET') {
      return json(res, 200, {
        name: 'Guarded agent',
        description: 'Needs a bearer token',
        version: '1.0.0',
        supportedInterfaces: [
          { url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: {},
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
      });
    }
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${SECRET}`) {
      res.writeHead(auth ? 403 : 401, { 'WWW-Authenticate': 'Bearer' });
      return res.end();
    }
    const { id } = JSON.parse(body) as { id: number };
    json(res, 200, {
      jsonrpc: '2.0',
      id,
      result: {
        task: {
          id: 't-1',
          contextId: 'c-1',
          status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
          artifacts: [{ artifactId: 'a-1', parts: [{ text: 'welcome in' }] }],
        },
      },
    });
  });
}
