import { useState } from 'react';
import { EditBase, Form, Loading, useNotify, usePermissions, useRecordContext, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import { CompanyInputs, companyTransform, type CallerKind } from './CompanyInputs';
import { FormError, errorMessages } from './FormError';

const T = 'resources.companies';

function Body({ kind, onClose, error }: { kind: CallerKind; onClose: () => void; error: unknown }) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return <Loading />;
  return (
    <Form warnWhenUnsavedChanges={false} noValidate>
      <DialogContent dividers>
        <CompanyInputs sections={['settings', 'details', 'carrier', 'enduser']} kind={kind} mode="edit" recordRole={Number(record.company_role_id)} headings />
        <FormError error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="dialog-cancel">{translate(`${T}.actions.cancel`)}</Button>
        <Button type="submit" variant="contained" data-testid="dialog-save">{translate(`${T}.actions.save`)}</Button>
      </DialogActions>
    </Form>
  );
}

/**
 * Edit a company in a modal (accounts document §2): the role only for admins, end-user settings only
 * for end-user companies, carrier settings for carriers; a new logo at most 1 MB. Closes and refreshes
 * the list on success; a failure stays open with its messages under the form.
 */
export function CompanyEditDialog({ id, onClose }: { id: Identifier | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const kind: CallerKind = permissions === 'carrier' ? 'carrier' : 'admin';
  const fullScreen = useMediaQuery<Theme>((t) => t.breakpoints.down('md'));
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Dialog open={id !== null} onClose={close} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="company-edit-title" data-testid="dialog-edit">
      <DialogTitle id="company-edit-title">{translate(`${T}.edit_title`)}</DialogTitle>
      {id !== null ? (
        <EditBase
          resource="companies"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={companyTransform}
          mutationOptions={{
            onSuccess: () => {
              close();
              refresh();
            },
            onError: (e: unknown) => {
              setError(e);
              const [message, ...fields] = errorMessages(e);
              if (!fields.length) notify(message, { type: 'error', messageArgs: { _: message } });
            },
          }}
        >
          <Box>
            <Body kind={kind} onClose={close} error={error} />
          </Box>
        </EditBase>
      ) : null}
    </Dialog>
  );
}
