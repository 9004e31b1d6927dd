import { useState, type ReactNode } from 'react';
import { CreateBase, EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { Box, Button, Dialog, DialogContent, DialogTitle, IconButton, useMediaQuery, type Theme } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { FormErrorBlock } from '../feedback/ErrorBlock';
import { ErrorBanner, useErrorBanner } from '../feedback/ErrorBanner';
import { normalizeError } from '../feedback/errors';

export interface FormDialogProps {
  resource: string;
  /** Create a record, or edit the record with this id. */
  mode: 'create' | 'edit';
  id?: Identifier;
  open: boolean;
  onClose: () => void;
  /** A message key or text. */
  title: string;
  defaultValues?: Record<string, unknown>;
  /** Shapes the record before it is sent. */
  transform?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** The element that gets the focus back when the dialog has closed (the add button, the row's menu button). */
  returnFocusTo?: HTMLElement | null;
  children: ReactNode;
  /** Wider dialogs for long forms (default sm). */
  maxWidth?: 'sm' | 'md' | 'lg';
}

/**
 * An edit dialog opens on the row the list already has and gets the full record a moment later; the
 * form then takes the new values, but not over what the user has typed in the meantime (CI caught
 * "Indirizzo (riga 2)" of a company emptied under the test's fingers, Save left disabled).
 */
const KEEP_TYPED = { keepDirtyValues: true } as const;

function DialogToolbar({ onCancel }: { onCancel: () => void }) {
  const translate = useTranslate();
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1, bgcolor: 'transparent', px: 0 }}>
      <Button onClick={onCancel} data-testid="dialog-cancel">
        {translate('ra.action.cancel')}
      </Button>
      <SaveButton alwaysEnable={false} data-testid="dialog-save" />
    </Toolbar>
  );
}

/**
 * Add or edit in a modal (accounts document §2): saves without leaving the list, closes on success
 * and refetches the list; a failure keeps it open with the error banner (5 s) above, the error block
 * under the form (until the next try), the field errors under their inputs, and the toasts. Focus goes back to where it was when the dialog closes.
 */
export function FormDialog({ resource, mode, id, open, onClose, title, defaultValues, transform, returnFocusTo, children, maxWidth = 'sm' }: FormDialogProps) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const notify = useNotify();
  const fullScreen = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const [error, setError] = useState<unknown>(null);
  const banner = useErrorBanner();
  const titleId = `dialog-title-${resource}-${mode}`;
  const close = () => {
    setError(null);
    banner.clear();
    onClose();
  };
  const mutationOptions = {
    onSuccess: () => {
      setError(null);
      banner.clear();
      onClose();
      refresh();
    },
    onError: (e: unknown) => {
      setError(e);
      banner.show(e);
      // Field errors arrive as toasts from the data provider and under the inputs; other failures toast here.
      const n = normalizeError(e);
      if (!Object.keys(n.errors).length) notify(n.message, { type: 'error', messageArgs: { _: n.message } });
    },
  };
  const form = (
    <SimpleForm
      toolbar={<DialogToolbar onCancel={close} />}
      defaultValues={defaultValues}
      sx={{ p: 0 }}
      warnWhenUnsavedChanges={false}
      resetOptions={KEEP_TYPED}
    >
      {children}
      <Box sx={{ width: '100%' }}>
        <FormErrorBlock error={error} />
      </Box>
    </SimpleForm>
  );
  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={fullScreen}
      aria-labelledby={titleId}
      data-testid={`dialog-${mode}`}
      slotProps={{ transition: { onExited: () => returnFocusTo?.focus() } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {translate(title, { _: title })}
        <IconButton aria-label={translate('ra.action.close')} onClick={close} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <ErrorBanner messages={banner.messages} onClose={banner.clear} />
        {open && mode === 'create' ? (
          <CreateBase resource={resource} redirect={false} transform={transform} mutationOptions={mutationOptions}>
            {form}
          </CreateBase>
        ) : null}
        {open && mode === 'edit' && id !== undefined ? (
          <EditBase resource={resource} id={id} redirect={false} mutationMode="pessimistic" transform={transform} mutationOptions={mutationOptions}>
            {form}
          </EditBase>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
