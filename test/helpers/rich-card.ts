/**
 * The Agent Card both gRPC interop tests send through @a2a-js/sdk's gRPC client and server: it
 * exercises every oneof, map and `optional` field of AgentCard, so a field the conversion drops
 * shows up as a difference.
 */
import type { AgentCard } from '../../src/core/schemas/index.js';

/** The card, with its one interface at `url`. */
export const richCard = (url: string): AgentCard => ({
  name: 'rich',
  description: 'every card feature',
  version: '2.0.0',
  supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 't' }],
  provider: { url: 'https://example.com', organization: 'Example' },
  documentationUrl: '',
  iconUrl: 'https://example.com/icon.png',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extendedAgentCard: true,
    extensions: [{ uri: 'urn:e', required: true, params: { a: [1, null] } }],
  },
  securitySchemes: {
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { read: 'Read' } } },
      },
    },
    device: {
      oauth2SecurityScheme: {
        flows: {
          deviceCode: { deviceAuthorizationUrl: 'https://d', tokenUrl: 'https://t', scopes: {} },
        },
      },
    },
    oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id' } },
    mtls: { mtlsSecurityScheme: { description: 'certs' } },
  },
  securityRequirements: [{ schemes: { bearer: {}, oauth: { list: ['read'] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [
    {
      id: 's',
      name: 'S',
      description: 'd',
      tags: ['x'],
      securityRequirements: [{ schemes: { key: {} } }],
    },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k' } }],
});
