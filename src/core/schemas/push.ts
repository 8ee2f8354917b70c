/** Push notification configuration (spec §4.3, proto `TaskPushNotificationConfig`). */
import { z } from 'zod';
import { id, message, requiredString } from './proto-json.js';

export const AuthenticationInfo = message({
  scheme: requiredString,
  credentials: z.string().optional(),
});
export type AuthenticationInfo = z.infer<typeof AuthenticationInfo>;

export const TaskPushNotificationConfig = message({
  tenant: id.optional(),
  id: id.optional(),
  taskId: id.optional(),
  url: requiredString,
  token: z.string().optional(),
  authentication: AuthenticationInfo.optional(),
});
export type TaskPushNotificationConfig = z.infer<typeof TaskPushNotificationConfig>;
