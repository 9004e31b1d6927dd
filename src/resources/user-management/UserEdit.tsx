import { useGetIdentity, usePermissions, useRecordContext, type Identifier } from 'react-admin';
import { FormDialog } from '../../components/forms/FormDialog';
import { UserInputs, userTransform, type CallerKind } from './UserInputs';

function Inputs({ kind }: { kind: CallerKind }) {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  if (!record) return null;
  // One's own role and company stay as they are (the server refuses the change).
  return <UserInputs sections={['settings', 'information', 'notes']} kind={kind} mode="edit" locked={record.id === identity?.id} headings />;
}

/** Edit a user in a modal (accounts document §2): phone spaces stripped; a new password only when typed. */
export function UserEditDialog({ id, onClose, returnFocusTo }: { id: Identifier | null; onClose: () => void; returnFocusTo?: HTMLElement | null }) {
  const { permissions } = usePermissions();
  const kind: CallerKind = permissions === 'carrier' ? 'carrier' : 'admin';
  return (
    <FormDialog
      resource="user-management"
      mode="edit"
      id={id ?? undefined}
      open={id !== null}
      onClose={onClose}
      title="resources.user-management.edit_title"
      transform={userTransform}
      returnFocusTo={returnFocusTo}
      maxWidth="md"
    >
      <Inputs kind={kind} />
    </FormDialog>
  );
}
