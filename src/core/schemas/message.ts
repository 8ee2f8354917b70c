/** Message and Role (spec §4.1.4, proto `Message`). */
import { z } from 'zod';
import { Part } from './part.js';
import { id, message, protoEnum, requiredId, struct } from './proto-json.js';

/** Role values in proto number order (1, 2). */
export const ROLES = ['ROLE_USER', 'ROLE_AGENT'] as const;
/** `ROLE_USER` (1) or `ROLE_AGENT` (2). */
export const Role = protoEnum('ROLE_UNSPECIFIED', ROLES);
export type Role = z.infer<typeof Role>;

export const Message = message({
  messageId: requiredId,
  contextId: id.optional(),
  taskId: id.optional(),
  role: Role,
  parts: z.array(Part).min(1, 'must contain at least one part'),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(id).optional(),
});
export type Message = z.infer<typeof Message>;
