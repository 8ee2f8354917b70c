/** Part: the unit of content in messages and artifacts (spec §4.1.6, proto `Part`). */
import { z } from 'zod';
import { oneof, message, struct } from './proto-json.js';

/** What `raw` must look like: base64, standard or URL-safe alphabet. */
export const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Exactly one of `text`, `raw` (base64), `url`, `data` (any JSON value, `null` included) —
 * the proto oneof `content`; the member name is the discriminator, there is no `kind`.
 */
export const Part = message({
  text: z.string().optional(),
  raw: z.string().regex(BASE64, 'must be base64').optional(),
  url: z.string().min(1).optional(),
  data: z.unknown().optional(),
  metadata: struct.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
}).apply(oneof(['text', 'raw', 'url', 'data'], 'content'));
export type Part = z.infer<typeof Part>;
