import { useState, type ReactNode } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { normalizeError } from '../../components/feedback/errors';

/**
 * The frame of a settings card that lists things (sessions, API keys, webhooks): a titled section with its
 * action button, the intro, then a spinner while the list loads, an alert when it could not, `empty` when it
 * has no rows, else `children` (the list). `messages` is the card's key prefix (`<messages>.title`, `.intro`,
 * `.load_error`); `name` gives the section's test id (`<name>-card`) and its title's id (`<name>-title`).
 * `dialogs` go inside the card, after its content.
 */
export function SettingsListCard({
  name,
  messages,
  action,
  list,
  rows,
  empty,
  children,
  dialogs,
}: {
  name: string;
  messages: string;
  action: ReactNode;
  list: { isPending: boolean; isError: boolean };
  /** the rows loaded, undefined until then */
  rows: readonly unknown[] | undefined;
  /** shown instead of `children` when there is no row; without it, `children` is shown whatever the count */
  empty?: string;
  children: ReactNode;
  dialogs: ReactNode;
}) {
  const translate = useTranslate();
  const titleId = `${name}-title`;
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ mt: 3 }} data-testid={`${name}-card`}>
      <CardContent sx={{ p: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography id={titleId} variant="h6" component="h2">
            {translate(`${messages}.title`)}
          </Typography>
          <Box>{action}</Box>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate(`${messages}.intro`)}
        </Typography>
        {list.isPending && <CircularProgress size={24} aria-label={translate(`${messages}.title`)} />}
        {list.isError && (
          <Alert severity="error" role="alert">
            {translate(`${messages}.load_error`)}
          </Alert>
        )}
        {rows && !rows.length && empty !== undefined ? (
          <Typography variant="body2" color="text.secondary">
            {empty}
          </Typography>
        ) : (
          rows && children
        )}
      </CardContent>
      {dialogs}
    </Card>
  );
}

/**
 * A small table with its heads: `columns` are message keys under `messages` (`<messages>.<key>`); a column given
 * as `[key, 'right']` is aligned right. `children` are the body's `<TableRow>`s.
 */
export function ListTable({
  testId,
  messages,
  columns,
  children,
}: {
  testId: string;
  messages: string;
  columns: ReadonlyArray<string | readonly [string, 'right']>;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <TableContainer>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {columns.map((c) => {
              const [key, align] = typeof c === 'string' ? [c, undefined] : c;
              return (
                <TableCell key={key} align={align}>
                  {translate(`${messages}.${key}`)}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** Who made a row and when: the name, the time below it in grey. */
export function CreatedCell({ by, at }: { by: string; at: string }) {
  return (
    <TableCell>
      {by}
      <Typography variant="body2" color="text.secondary">
        {at}
      </Typography>
    </TableCell>
  );
}

export interface ConfirmedAction<T> {
  /** what the open dialog is about; null while it is closed */
  target: T | null;
  busy: boolean;
  ask(target: T): void;
  close(): void;
  confirm(): Promise<void>;
}

/**
 * A destructive action on a listed thing, asked for first (revoke a key, delete an endpoint, end a session):
 * `run` answers the server's message, shown as a success toast (a failure's as an error toast); then the list
 * (`queryKey`) is asked again and the dialog closes. When `leave(target)` answers a function (ending this very
 * session), the dialog closes and that function runs instead of asking the list again.
 */
export function useConfirmedAction<T>({
  queryKey,
  run,
  leave,
}: {
  queryKey: QueryKey;
  run: (target: T) => Promise<{ message: string }>;
  leave?: (target: T) => (() => Promise<unknown>) | undefined;
}): ConfirmedAction<T> {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    if (target === null) return;
    setBusy(true);
    try {
      notify((await run(target)).message, { type: 'success' });
      const then = leave?.(target);
      if (then) {
        setTarget(null);
        await then();
        return;
      }
      await queryClient.invalidateQueries({ queryKey });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
      await queryClient.invalidateQueries({ queryKey });
    } finally {
      setBusy(false);
      setTarget(null);
    }
  }
  return { target, busy, ask: setTarget, close: () => setTarget(null), confirm };
}

/** The confirmation dialog of a `useConfirmedAction` (a warning-coloured confirm button). */
export function ConfirmActionDialog<T>({
  action,
  title,
  content,
  confirm,
  cancel,
}: {
  action: ConfirmedAction<T>;
  title: string;
  content: string;
  confirm: string;
  cancel: string;
}) {
  return (
    <Confirm
      isOpen={action.target !== null}
      loading={action.busy}
      title={title}
      content={content}
      confirm={confirm}
      confirmColor="warning"
      cancel={cancel}
      onConfirm={action.confirm}
      onClose={action.close}
    />
  );
}
