import { usePermissions, useRecordContext, type Identifier } from 'react-admin';
import { FormDialog } from '../../components/forms/FormDialog';
import { CompanyInputs, companyTransform, type CallerKind } from './CompanyInputs';

function Inputs({ kind }: { kind: CallerKind }) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <CompanyInputs sections={['settings', 'details', 'carrier', 'enduser']} kind={kind} mode="edit" recordRole={Number(record.company_role_id)} headings />
  );
}

/**
 * Edit a company in a modal (accounts document §2): the role only for admins, end-user settings only
 * for end-user companies, carrier settings for carriers; a new logo at most 1 MB. The shared form
 * dialog closes and refreshes the list on success, and keeps a failure's messages under the form.
 */
export function CompanyEditDialog({ id, onClose, returnFocusTo }: { id: Identifier | null; onClose: () => void; returnFocusTo?: HTMLElement | null }) {
  const { permissions } = usePermissions();
  const kind: CallerKind = permissions === 'carrier' ? 'carrier' : 'admin';
  return (
    <FormDialog
      resource="companies"
      mode="edit"
      id={id ?? undefined}
      open={id !== null}
      onClose={onClose}
      title="resources.companies.edit_title"
      transform={companyTransform}
      returnFocusTo={returnFocusTo}
      maxWidth="md"
    >
      <Inputs kind={kind} />
    </FormDialog>
  );
}
