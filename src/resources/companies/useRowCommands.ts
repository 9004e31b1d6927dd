import { useState } from 'react';
import { useDataProvider, useDelete, useNotify, useRefresh, type Identifier, type RaRecord } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { normalizeError } from '../../components/feedback/errors';

/**
 * Delete (after a confirmation) and activate/deactivate for a list's rows. Refusals (a company that
 * still has users, your own account) come back as the server's message in an error toast.
 */
export function useRowCommands(resource: string) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [remove, { isPending: deleting }] = useDelete();
  const [toDelete, setToDelete] = useState<RaRecord | null>(null);
  const fail = (e: unknown) => {
    const { message } = normalizeError(e);
    notify(message, { type: 'error', messageArgs: { _: message } });
  };
  return {
    toDelete,
    deleting,
    askDelete: (record: RaRecord) => setToDelete(record),
    cancelDelete: () => setToDelete(null),
    confirmDelete: () => {
      if (!toDelete) return;
      remove(
        resource,
        { id: toDelete.id, previousData: toDelete },
        {
          mutationMode: 'pessimistic',
          onSuccess: () => {
            setToDelete(null);
            refresh();
          },
          onError: (e) => {
            setToDelete(null);
            fail(e);
          },
        },
      );
    },
    async toggleStatus(id: Identifier) {
      try {
        await dataProvider.changeStatus(resource, { id });
        refresh();
      } catch (e) {
        fail(e);
      }
    },
  };
}
