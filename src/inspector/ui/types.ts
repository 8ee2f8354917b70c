/** The shapes the page receives from the inspector API (mirrors of src/inspector types). */

export interface Violation {
  field: string;
  description: string;
}

export interface InterfaceRow {
  protocolBinding: string;
  url: string;
  protocolVersion: string;
  tenant?: string;
  usable: boolean;
  /** The picker's value: `JSONRPC`, or `JSONRPC@0.3` for a 0.3 interface. */
  choice: string;
  note?: string;
}

export type Signature =
  | { status: 'verified'; kid: string; alg: string; jku?: string }
  | { status: 'unsigned' }
  | {
      status: 'invalid';
      message: string;
      failures: { kid?: string; code: string; message: string }[];
    };

export type Json = Record<string, unknown>;

export interface Skill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
}

export interface Card {
  name: string;
  description: string;
  version: string;
  provider?: { organization: string; url: string };
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extendedAgentCard?: boolean;
    extensions?: { uri: string; description?: string; required?: boolean }[];
  };
  securitySchemes?: Record<string, Json>;
  securityRequirements?: { schemes?: Record<string, unknown> }[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: Skill[];
  supportedInterfaces: InterfaceRow[];
}

export interface Report {
  cardUrl: string;
  raw: unknown;
  card: Card | null;
  valid: boolean;
  violations: Violation[];
  warnings: string[];
  signature: Signature;
  interfaces: InterfaceRow[];
  versions: string[];
  legacy: boolean;
}

export interface AuthField {
  name: string;
  label: string;
  secret: boolean;
  value?: string;
}

export interface AuthNeed {
  scheme: string;
  kind: string;
  description: string;
  required: boolean;
  fields: AuthField[];
  configured: boolean;
  unsupported?: string;
}

export interface TimelineEvent {
  taskId: string;
  seq: number;
  time: number;
  sinceMs: number;
  sseId?: string;
  kind: 'task' | 'status' | 'artifact' | 'message';
  state?: string;
  artifactId?: string;
  append?: boolean;
  lastChunk?: boolean;
  text: string;
  event: Json;
}

export interface WireEntry {
  id: number;
  time: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  frames: { time: number; text: string }[];
  error?: string;
  durationMs?: number;
  curl: string;
  via: string;
}

export interface Delivery {
  seq: number;
  time: number;
  hookId: string;
  accepted: boolean;
  signature: string;
  replay: string;
  kid?: string;
  issuer?: string;
  taskId?: string;
  message?: string;
  event?: Json;
  status: number;
}

export interface Hook {
  id: string;
  taskId: string;
  url: string;
  jwksUrl?: string;
  created: number;
}

export interface Task {
  id: string;
  contextId: string;
  status: { state: string; timestamp?: string; message?: { parts: { text?: string }[] } };
  artifacts?: { artifactId: string; name?: string; parts: { text?: string; data?: unknown }[] }[];
  history?: unknown[];
}

/** What every view gets. */
export interface Shared {
  report: Report | null;
  needs: AuthNeed[];
  binding: string;
  setNeeds(needs: AuthNeed[]): void;
  /** Shows the auth view with a reason (after a 401). */
  askAuth(reason: string): void;
  openTask(taskId: string): void;
}
