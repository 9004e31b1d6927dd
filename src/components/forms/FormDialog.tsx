import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CreateBase, EditBase, SaveButton, SimpleForm, Toolbar, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { Box, Button, Dialog, DialogContent, DialogTitle, IconButton, useMediaQuery, type Theme } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { FormErrorBlock, formShows, messagesOutOfSight } from '../feedback/ErrorBlock';
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

/** The first input of the form that carries an error, to take the focus (a refused save). */
function focusFirstInvalid(root: HTMLElement | null) {
  const el = root?.querySelector<HTMLElement>('input[aria-invalid=true], textarea[aria-invalid=true], [role=combobox][aria-invalid=true]');
  el?.focus();
  return !!el;
}

/**
 * Add or edit in a modal (accounts document §2): saves without leaving the list, closes on success
 * and refetches the list. A failure keeps it open and says each problem once (issue 35, which replaces
 * the document's banner + toasts + block for forms): a field's message under its input, which takes the
 * focus; at the top, only what no input shows (a field the form lacks, or a failure that names no field,
 * such as a 500). No toast repeats them, and react-admin's "the form is not valid" toast is off (the
 * fields say what is wrong). Focus goes back to where it was when the dialog closes.
 */
export function FormDialog({ resource, mode, id, open, onClose, title, defaultValues, transform, returnFocusTo, children, maxWidth = 'sm' }: FormDialogProps) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const fullScreen = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const [error, setError] = useState<unknown>(null);
  const markRef = useRef<HTMLDivElement>(null);
  const form = () => markRef.current?.closest('form') ?? null;
  const summaryRef = useRef<HTMLDivElement>(null);
  const titleId = `dialog-title-${resource}-${mode}`;
  const close = () => {
    setError(null);
    onClose();
  };
  const shown = (field: string) => formShows(form(), field);
  // A refused save: the first wrong input takes the focus; when only the summary speaks, it comes into sight.
  useEffect(() => {
    if (!error) return;
    const t = setTimeout(() => {
      const summary = messagesOutOfSight(error, shown).length > 0;
      if (summary) summaryRef.current?.scrollIntoView?.({ block: 'nearest' });
      else if (Object.keys(normalizeError(error).errors).length) focusFirstInvalid(form());
    });
    return () => clearTimeout(t);
  }, [error]); // eslint-disable-line react-hooks/exhaustive-deps
  const mutationOptions = {
    // The form shows each field's message at its input: the provider toasts none of them.
    meta: { fieldErrorsShown: true },
    onSuccess: () => {
      setError(null);
      onClose();
      refresh();
    },
    onError: (e: unknown) => setError(e),
  };
  const body = (
    <SimpleForm
      toolbar={<DialogToolbar onCancel={close} />}
      defaultValues={defaultValues}
      sx={{ p: 0 }}
      warnWhenUnsavedChanges={false}
      resetOptions={KEEP_TYPED}
      disableInvalidFormNotification
    >
      {/* The summary at the top (the form is found from it: the inputs stay the form's own children). */}
      <Box ref={markRef} sx={{ width: '100%', '& [data-testid=form-error]': { mt: 0, mb: 2 } }}>
        <FormErrorBlock ref={summaryRef} error={error} shown={shown} />
      </Box>
      {children}
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
        {open && mode === 'create' ? (
          <CreateBase resource={resource} redirect={false} transform={transform} mutationOptions={mutationOptions}>
            {body}
          </CreateBase>
        ) : null}
        {open && mode === 'edit' && id !== undefined ? (
          <EditBase resource={resource} id={id} redirect={false} mutationMode="pessimistic" transform={transform} mutationOptions={mutationOptions}>
            {body}
          </EditBase>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
