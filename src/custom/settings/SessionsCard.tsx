import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useDataProvider, useLogout, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { ActiveSession } from '../../dataProvider/sessions';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';

const KEY = ['account', 'sessions'];
type Pending = { kind: 'one'; session: ActiveSession } | { kind: 'others' };

/**
 * "Sessioni attive" (server.md §3 "Sessions"): every browser the user is signed in from, with its address,
 * start and last use; each can be ended (ending this one signs out), or all the others at once.
 */
export function SessionsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: KEY, queryFn: () => dataProvider.activeSessions(), staleTime: 0 });
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  // A phone gets one block per session instead of a table it would have to scroll sideways.
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  const browser = (s: ActiveSession) => s.browser ?? translate('sessions.unknown_browser');
  const address = (s: ActiveSession) => s.ip ?? translate('sessions.unknown_address');
  const others = (sessions.data ?? []).filter((s) => !s.current);

  async function run() {
    if (!pending) return;
    setBusy(true);
    try {
      const answer = pending.kind === 'one' ? await dataProvider.endSession(pending.session.id) : await dataProvider.endOtherSessions();
      notify(answer.message, { type: 'success' });
      if (pending.kind === 'one' && pending.session.current) {
        setPending(null);
        await logout();
        return;
      }
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
      await queryClient.invalidateQueries({ queryKey: KEY });
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  const endButton = (s: ActiveSession) => (
    <Button
      size="small"
      color="warning"
      disabled={busy}
      onClick={() => setPending({ kind: 'one', session: s })}
      aria-label={translate('sessions.end_label', { browser: browser(s) })}
      data-testid="session-end"
    >
      {translate('sessions.end')}
    </Button>
  );

  let dialogText = '';
  if (pending?.kind === 'others') dialogText = translate('sessions.end_others_text');
  else if (pending?.session.current) dialogText = translate('sessions.end_current_text');
  else if (pending) dialogText = translate('sessions.end_text', { browser: browser(pending.session), address: address(pending.session) });

  return (
    <Card component="section" aria-labelledby="sessions-title" sx={{ mt: 3 }} data-testid="sessions-card">
      <CardContent sx={{ p: 3 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography id="sessions-title" variant="h6" component="h2">
            {translate('sessions.title')}
          </Typography>
          <Box>
            <Button
              variant="outlined"
              color="warning"
              disabled={!others.length || busy}
              onClick={() => setPending({ kind: 'others' })}
              data-testid="sessions-end-others"
            >
              {translate('sessions.end_others')}
            </Button>
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('sessions.intro')}
        </Typography>
        {sessions.isPending && <CircularProgress size={24} aria-label={translate('sessions.title')} />}
        {sessions.isError && (
          <Alert severity="error" role="alert">
            {translate('sessions.load_error')}
          </Alert>
        )}
        {sessions.data && narrow && (
          <Stack spacing={1.5} data-testid="sessions-table">
            {sessions.data.map((s) => (
              <Box
                key={s.id}
                data-testid="session-row"
                data-current={s.current ? 'true' : 'false'}
                data-session={s.id}
                sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
              >
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
                  <Typography variant="subtitle2" component="span">
                    {browser(s)}
                  </Typography>
                  {s.current && <Chip size="small" color="primary" label={translate('sessions.this_session')} data-testid="session-current" />}
                </Stack>
                <Typography variant="body2">
                  {translate('sessions.address')}: {address(s)}
                </Typography>
                <Typography variant="body2">
                  {translate('sessions.started')}: {dateTime(s.created_at)}
                </Typography>
                <Typography variant="body2">
                  {translate('sessions.last_used')}: {dateTime(s.last_used_at)}
                </Typography>
                {endButton(s)}
              </Box>
            ))}
          </Stack>
        )}
        {sessions.data && !narrow && (
          <TableContainer>
            <Table size="small" data-testid="sessions-table">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('sessions.browser')}</TableCell>
                  <TableCell>{translate('sessions.address')}</TableCell>
                  <TableCell>{translate('sessions.started')}</TableCell>
                  <TableCell>{translate('sessions.last_used')}</TableCell>
                  <TableCell align="right">{translate('sessions.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sessions.data.map((s) => (
                  <TableRow key={s.id} data-testid="session-row" data-current={s.current ? 'true' : 'false'} data-session={s.id}>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <span>{browser(s)}</span>
                        {s.current && <Chip size="small" color="primary" label={translate('sessions.this_session')} data-testid="session-current" />}
                      </Stack>
                    </TableCell>
                    <TableCell>{address(s)}</TableCell>
                    <TableCell>{dateTime(s.created_at)}</TableCell>
                    <TableCell>{dateTime(s.last_used_at)}</TableCell>
                    <TableCell align="right">{endButton(s)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {sessions.data && !others.length && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {translate('sessions.no_others')}
          </Typography>
        )}
      </CardContent>
      <Confirm
        isOpen={!!pending}
        loading={busy}
        title={translate(pending?.kind === 'others' ? 'sessions.end_others_title' : 'sessions.end_title')}
        content={dialogText}
        confirm={translate(pending?.kind === 'others' ? 'sessions.end_others' : 'sessions.end')}
        confirmColor="warning"
        cancel={translate('sessions.cancel')}
        onConfirm={run}
        onClose={() => setPending(null)}
      />
    </Card>
  );
}
