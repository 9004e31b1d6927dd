import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ListBase, useListContext, usePermissions, useTranslate } from 'react-admin';
import { Card, CardContent, Typography } from '@mui/material';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { EmptyState } from '../table/EmptyState';
import { Pager } from '../table/Pager';
import { ListErrorBlock } from '../feedback/ErrorBlock';
import { AuditTable } from './AuditTable';

/** The audit log's react-admin resource (model/resources/auditLog.ts). */
export const AUDIT_RESOURCE = 'audit-log';

export interface ActivityProps {
  /** The table the entries are about (`companies`, `users`, `transport_requests`, `express_hub_costs`…). */
  resource: string;
  /** One record's entries; absent: the whole table's (a tariff set). */
  id?: number | string | null;
  /** The company the entries are about, as actor or target (a carrier's tariff set). */
  companyId?: number | null;
  perPage?: number;
}

/**
 * The "Attività" section of a company, a user, a request and a tariff table (issue 19): the audit log's
 * entries about it, newest first, paged, with its empty text. Shown to the kinds that may read the log
 * (admins, carriers); the server keeps a carrier to its own tenant's entries.
 */
export function ActivitySection({ resource, id, companyId, perPage = 10 }: ActivityProps) {
  const translate = useTranslate();
  const { permissions: kind, isPending } = usePermissions<Kind>();
  const queryClient = useQueryClient();
  // A write done on the same screen (a request confirmed, a tariff set deleted) is a new entry: read the log again.
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') void queryClient.invalidateQueries({ queryKey: [AUDIT_RESOURCE] });
      }),
    [queryClient],
  );
  if (isPending || !canAccess(kind, AUDIT_RESOURCE, 'list')) return null;
  const filter: Record<string, unknown> = { resource };
  if (id !== undefined && id !== null && id !== '') filter.resource_id = Number(id);
  if (companyId) filter.company_id = companyId;
  return (
    <Card sx={{ mb: 2 }} data-testid="activity" component="section" aria-labelledby="activity-title">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }} id="activity-title">
          {translate('audit.activity')}
        </Typography>
        <ListBase resource={AUDIT_RESOURCE} filter={filter} sort={{ field: 'at', order: 'DESC' }} perPage={perPage} disableSyncWithLocation storeKey={false}>
          <ActivityBody />
        </ListBase>
      </CardContent>
    </Card>
  );
}

function ActivityBody() {
  const { error } = useListContext();
  if (error) return <ListErrorBlock />;
  return (
    <>
      <AuditTable compact empty={<EmptyState text="audit.activity_empty" />} />
      <Pager />
    </>
  );
}
