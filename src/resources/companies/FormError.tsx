import { useTranslate } from 'react-admin';
import { Alert, Box } from '@mui/material';

/** The messages of a failed create, update or delete, under the form (accounts document §8). */
export function errorMessages(error: unknown): string[] {
  const e = error as { message?: string; body?: { message?: string; errors?: Record<string, unknown>; errorList?: Record<string, unknown> } } | null;
  if (!e) return [];
  const fields = e.body?.errorList ?? e.body?.errors ?? {};
  const list = Object.entries(fields).filter(([k]) => k !== 'root').flatMap(([, v]) => (Array.isArray(v) ? v : [v])).map(String);
  const message = e.body?.message ?? e.message ?? 'Internal server error';
  return [message, ...list.filter((m) => m !== message)];
}

export function FormError({ error }: { error: unknown }) {
  const translate = useTranslate();
  const messages = errorMessages(error);
  if (!messages.length) return null;
  return (
    <Alert severity="error" data-testid="form-error" role="alert" sx={{ mt: 2 }}>
      {messages.length === 1 ? translate(messages[0], { _: messages[0] }) : (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>{messages.map((m) => <li key={m}>{translate(m, { _: m })}</li>)}</Box>
      )}
    </Alert>
  );
}
