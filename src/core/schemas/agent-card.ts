/** AgentCard and everything in it (spec §4.4, §8, proto `AgentCard`). */
import { z } from 'zod';
import { oneof, message, requiredString, struct } from './proto-json.js';

const stringMap = z.record(z.string(), z.string());

export const AgentInterface = message({
  url: requiredString,
  protocolBinding: requiredString,
  tenant: z.string().optional(),
  protocolVersion: requiredString,
});
export type AgentInterface = z.infer<typeof AgentInterface>;

export const AgentProvider = message({ url: requiredString, organization: requiredString });
export type AgentProvider = z.infer<typeof AgentProvider>;

export const AgentExtension = message({
  uri: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: struct.optional(),
});
export type AgentExtension = z.infer<typeof AgentExtension>;

export const AgentCapabilities = message({
  streaming: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  extensions: z.array(AgentExtension).optional(),
  extendedAgentCard: z.boolean().optional(),
});
export type AgentCapabilities = z.infer<typeof AgentCapabilities>;

export const StringList = message({ list: z.array(z.string()).optional() });

/** `{"schemes": {"<name>": {"list": [scopes]}}}`; a list of these is OR, schemes inside are AND. */
export const SecurityRequirement = message({
  schemes: z.record(z.string(), StringList).optional(),
});
export type SecurityRequirement = z.infer<typeof SecurityRequirement>;

export const AgentSkill = message({
  id: requiredString,
  name: requiredString,
  description: requiredString,
  tags: z.array(z.string()).min(1, 'must contain at least one tag'),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
  securityRequirements: z.array(SecurityRequirement).optional(),
});
export type AgentSkill = z.infer<typeof AgentSkill>;

export const AgentCardSignature = message({
  protected: requiredString,
  signature: requiredString,
  header: struct.optional(),
});
export type AgentCardSignature = z.infer<typeof AgentCardSignature>;

export const APIKeySecurityScheme = message({
  description: z.string().optional(),
  location: z.enum(['query', 'header', 'cookie']),
  name: requiredString,
});
export const HTTPAuthSecurityScheme = message({
  description: z.string().optional(),
  scheme: requiredString,
  bearerFormat: z.string().optional(),
});

const AuthorizationCodeOAuthFlow = message({
  authorizationUrl: requiredString,
  tokenUrl: requiredString,
  refreshUrl: z.string().optional(),
  scopes: stringMap,
  pkceRequired: z.boolean().optional(),
});
const ClientCredentialsOAuthFlow = message({
  tokenUrl: requiredString,
  refreshUrl: z.string().optional(),
  scopes: stringMap,
});
const DeviceCodeOAuthFlow = message({
  deviceAuthorizationUrl: requiredString,
  tokenUrl: requiredString,
  refreshUrl: z.string().optional(),
  scopes: stringMap,
});
/** Deprecated flows: parsed, never emitted in new cards. */
const ImplicitOAuthFlow = message({
  authorizationUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: stringMap.optional(),
});
const PasswordOAuthFlow = message({
  tokenUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: stringMap.optional(),
});

/** Exactly one flow (proto oneof `flow`). */
export const OAuthFlows = message({
  authorizationCode: AuthorizationCodeOAuthFlow.optional(),
  clientCredentials: ClientCredentialsOAuthFlow.optional(),
  implicit: ImplicitOAuthFlow.optional(),
  password: PasswordOAuthFlow.optional(),
  deviceCode: DeviceCodeOAuthFlow.optional(),
}).apply(
  oneof(['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode'], 'flow'),
);

export const OAuth2SecurityScheme = message({
  description: z.string().optional(),
  flows: OAuthFlows,
  oauth2MetadataUrl: z.string().optional(),
});
export const OpenIdConnectSecurityScheme = message({
  description: z.string().optional(),
  openIdConnectUrl: requiredString,
});
export const MutualTlsSecurityScheme = message({ description: z.string().optional() });

/** Exactly one variant (proto oneof `scheme`), keyed by its member name; no `type`. */
export const SecurityScheme = message({
  apiKeySecurityScheme: APIKeySecurityScheme.optional(),
  httpAuthSecurityScheme: HTTPAuthSecurityScheme.optional(),
  oauth2SecurityScheme: OAuth2SecurityScheme.optional(),
  openIdConnectSecurityScheme: OpenIdConnectSecurityScheme.optional(),
  mtlsSecurityScheme: MutualTlsSecurityScheme.optional(),
}).apply(
  oneof(
    [
      'apiKeySecurityScheme',
      'httpAuthSecurityScheme',
      'oauth2SecurityScheme',
      'openIdConnectSecurityScheme',
      'mtlsSecurityScheme',
    ],
    'scheme',
  ),
);
export type SecurityScheme = z.infer<typeof SecurityScheme>;

export const AgentCard = message({
  name: requiredString,
  description: requiredString,
  supportedInterfaces: z.array(AgentInterface).min(1, 'must list at least one interface'),
  provider: AgentProvider.optional(),
  version: requiredString,
  documentationUrl: z.string().optional(),
  capabilities: AgentCapabilities,
  securitySchemes: z.record(z.string(), SecurityScheme).optional(),
  securityRequirements: z.array(SecurityRequirement).optional(),
  defaultInputModes: z.array(z.string()).min(1, 'must list at least one media type'),
  defaultOutputModes: z.array(z.string()).min(1, 'must list at least one media type'),
  // §5.7 wants ≥1 skill, but the §8.4.1 example canonicalizes `skills: []`: parse it leniently.
  skills: z.array(AgentSkill),
  signatures: z.array(AgentCardSignature).optional(),
  iconUrl: z.string().optional(),
});
export type AgentCard = z.infer<typeof AgentCard>;
