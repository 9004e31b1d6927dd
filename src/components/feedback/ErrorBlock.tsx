import { useListContext, useTranslate } from 'react-admin';
import { Alert, AlertTitle, Box, Button } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { forwardRef } from 'react';
import { collectMessages, normalizeError } from './errors';

/**
 * A failed list load, in place of the table (accounts document §8): "error loading data" and the
 * server's message, with a retry. Used as every list's `error` (the theme sets it on RaList).
 */
export function ListErrorBlock({ error: given }: { error?: unknown }) {
  const translate = useTranslate();
  const list = useListContext();
  const error = given ?? list.error;
  const { message } = normalizeError(error);
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        data-testid="list-error"
        action={
          list.refetch ? (
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={() => list.refetch()}>
              {translate('portal.retry')}
            </Button>
          ) : undefined
        }
      >
        <AlertTitle>{translate('portal.error_loading_data')}</AlertTitle>
        {translate(message, { _: message })}
      </Alert>
    </Box>
  );
}

/**
 * What a form's summary lists of a failed write (issue 35, one message per problem): the messages of the
 * fields no input of the form shows (`shown`), or the failure's own message when it names no field. A
 * field shown in the form carries its message under its input only.
 */
export function messagesOutOfSight(error: unknown, shown: (field: string) => boolean): string[] {
  if (!error) return [];
  const n = normalizeError(error);
  const fields = Object.entries(n.errors);
  if (!fields.length) return [n.message];
  const out: string[] = [];
  for (const [field, list] of fields) if (!shown(field)) for (const m of list) if (!out.includes(m)) out.push(m);
  return out;
}

/** Whether a form (its element) has the input of a field: react-admin's `ra-input-<field>` box or a named input. */
export const formShows = (root: HTMLElement | null | undefined, field: string) =>
  !!root && !!root.querySelector(`.ra-input-${CSS.escape(field)}, [name="${CSS.escape(field)}"]`);

/**
 * A failed create, update or delete, until the next attempt. With `shown` (issue 35) it is the form's one
 * summary: only what no input shows (messagesOutOfSight), nothing when every message sits at its field.
 */
export const FormErrorBlock = forwardRef<HTMLDivElement, { error: unknown; shown?: (field: string) => boolean }>(function FormErrorBlock(
  { error, shown },
  ref,
) {
  const translate = useTranslate();
  if (!error) return null;
  const messages = shown ? messagesOutOfSight(error, shown) : collectMessages(error);
  if (!messages.length) return null;
  return (
    <Alert ref={ref} severity="error" data-testid="form-error" role="alert" sx={{ mt: 2 }}>
      {messages.length === 1 ? (
        translate(messages[0], { _: messages[0] })
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {messages.map((m) => (
            <li key={m}>{translate(m, { _: m })}</li>
          ))}
        </Box>
      )}
    </Alert>
  );
});
