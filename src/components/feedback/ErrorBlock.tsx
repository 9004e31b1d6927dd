import { useListContext, useTranslate } from 'react-admin';
import { Alert, AlertTitle, Box, Button } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
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

/** A failed create, update or delete: the messages under the form, until the next attempt. */
export function FormErrorBlock({ error }: { error: unknown }) {
  const translate = useTranslate();
  if (!error) return null;
  const messages = collectMessages(error);
  return (
    <Alert severity="error" data-testid="form-error" role="alert" sx={{ mt: 2 }}>
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
}
