/**
 * The key of one (tenant, task) pair in the event buses' subscription maps: the tenant's length
 * first, so that no two pairs share a key whatever characters tenants and task ids hold.
 */
export function busKey(tenant: string, taskId: string): string {
  return `${tenant.length}:${tenant}${taskId}`;
}
