import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useLogout, useTranslate } from 'react-admin';
import { Box, Button, Chip, Pagination, Stack, TableCell, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';
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
  // Paged by the server (issue 35): a page is asked when shown; ending sessions refreshes every page (KEY's prefix).
  const [page, setPage] = useState(1);
  const sessions = useQuery({
    queryKey: [...KEY, page],
    queryFn: () => dataProvider.activeSessions(page),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const lastPage = sessions.data?.last_page ?? 1;
  const total = sessions.data?.total ?? 0;
  // Sessions ended meanwhile may leave the page past the end: the last one is shown instead.
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);
  const rows = sessions.data?.data;
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
  // The other sessions, on every page: all of them but this one.
  const others = Math.max(0, total - 1);
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
      rows={rows}
      action={
        <Button variant="outlined" color="warning" disabled={!others || busy} onClick={() => pending.ask({ kind: 'others' })} data-testid="sessions-end-others">
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
          {rows?.map((s) => (
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
          {rows?.map((s) => (
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
      {lastPage > 1 && (
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="body2" color="text.secondary" data-testid="sessions-total">
            {translate('sessions.total', { smart_count: total })}
          </Typography>
          <Pagination
            count={lastPage}
            page={Math.min(page, lastPage)}
            onChange={(_e, p) => setPage(p)}
            size="small"
            siblingCount={0}
            getItemAriaLabel={(type, p, selected) =>
              type === 'page' ? translate(selected ? 'sessions.page_current' : 'sessions.page', { page: p }) : translate(`sessions.page_${type}`)
            }
            data-testid="sessions-pages"
          />
        </Stack>
      )}
      {!others && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('sessions.no_others')}
        </Typography>
      )}
    </SettingsListCard>
  );
}
