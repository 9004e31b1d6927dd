import { useState } from 'react';
import { EditBase, Form, Loading, useGetIdentity, useNotify, usePermissions, useRecordContext, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import { FormError, errorMessages } from '../companies/FormError';
import { UserInputs, userTransform, type CallerKind } from './UserInputs';

const T = 'resources.user-management';

function Body({ kind, onClose, error }: { kind: CallerKind; onClose: () => void; error: unknown }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  if (!record) return <Loading />;
  return (
    <Form warnWhenUnsavedChanges={false} noValidate>
      <DialogContent dividers>
        <UserInputs sections={['settings', 'information', 'notes']} kind={kind} mode="edit" locked={record.id === identity?.id} headings />
        <FormError error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="dialog-cancel">{translate(`${T}.actions.cancel`)}</Button>
        <Button type="submit" variant="contained" data-testid="dialog-save">{translate(`${T}.actions.save`)}</Button>
      </DialogActions>
    </Form>
  );
}

/** Edit a user in a modal (accounts document §2): phone spaces stripped; a new password only when typed. */
export function UserEditDialog({ id, onClose }: { id: Identifier | null; onClose: () => void }) {
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
    <Dialog open={id !== null} onClose={close} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="user-edit-title" data-testid="dialog-edit">
      <DialogTitle id="user-edit-title">{translate(`${T}.edit_title`)}</DialogTitle>
      {id !== null ? (
        <EditBase
          resource="user-management"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={userTransform}
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
          <Body kind={kind} onClose={close} error={error} />
        </EditBase>
      ) : null}
    </Dialog>
  );
}
