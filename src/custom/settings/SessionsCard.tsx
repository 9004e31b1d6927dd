import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLogout, useTranslate } from 'react-admin';
import { Box, Button, Chip, Stack, TableCell, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { ActiveSession } from '../../dataProvider/sessions';
import { useFormat } from '../../components/format';
import { ConfirmActionDialog, ListTable, SettingsListCard, useConfirmedAction } from './SettingsListCard';

const KEY = ['account', 'sessions'];
type Pending = { kind: 'one'; session: ActiveSession } | { kind: 'others' };

/**
 * "Sessioni attive" (server.md §3 "Sessions"): every browser the user is signed in from, with its address,
 * start and last use; each can be ended (ending this one signs out), or all the others at once.
 */
export function SessionsCard() {
  const translate = useTranslate();
  const logout = useLogout();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const sessions = useQuery({ queryKey: KEY, queryFn: () => dataProvider.activeSessions(), staleTime: 0 });
  const pending = useConfirmedAction<Pending>({
    queryKey: KEY,
    run: (p) => (p.kind === 'one' ? dataProvider.endSession(p.session.id) : dataProvider.endOtherSessions()),
    // Ending this very session signs out: there is no list left to ask again.
    leave: (p) => (p.kind === 'one' && p.session.current ? logout : undefined),
  });
  // A phone gets one block per session instead of a table it would have to scroll sideways.
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  const browser = (s: ActiveSession) => s.browser ?? translate('sessions.unknown_browser');
  const address = (s: ActiveSession) => s.ip ?? translate('sessions.unknown_address');
  const others = (sessions.data ?? []).filter((s) => !s.current);
  const busy = pending.busy;

  const endButton = (s: ActiveSession) => (
    <Button
      size="small"
      color="warning"
      disabled={busy}
      onClick={() => pending.ask({ kind: 'one', session: s })}
      aria-label={translate('sessions.end_label', { browser: browser(s) })}
      data-testid="session-end"
    >
      {translate('sessions.end')}
    </Button>
  );

  const target = pending.target;
  let dialogText = '';
  if (target?.kind === 'others') dialogText = translate('sessions.end_others_text');
  else if (target?.session.current) dialogText = translate('sessions.end_current_text');
  else if (target) dialogText = translate('sessions.end_text', { browser: browser(target.session), address: address(target.session) });

  return (
    <SettingsListCard
      name="sessions"
      messages="sessions"
      list={sessions}
      rows={sessions.data}
      action={
        <Button
          variant="outlined"
          color="warning"
          disabled={!others.length || busy}
          onClick={() => pending.ask({ kind: 'others' })}
          data-testid="sessions-end-others"
        >
          {translate('sessions.end_others')}
        </Button>
      }
      dialogs={
        <ConfirmActionDialog
          action={pending}
          title={translate(target?.kind === 'others' ? 'sessions.end_others_title' : 'sessions.end_title')}
          content={dialogText}
          confirm={translate(target?.kind === 'others' ? 'sessions.end_others' : 'sessions.end')}
          cancel={translate('sessions.cancel')}
        />
      }
    >
      {narrow ? (
        <Stack spacing={1.5} data-testid="sessions-table">
          {sessions.data?.map((s) => (
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
      ) : (
        <ListTable testId="sessions-table" messages="sessions" columns={['browser', 'address', 'started', 'last_used', ['actions', 'right']]}>
          {sessions.data?.map((s) => (
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
        </ListTable>
      )}
      {!others.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('sessions.no_others')}
        </Typography>
      )}
    </SettingsListCard>
  );
}
