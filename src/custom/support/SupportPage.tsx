import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { Alert, Box, Button, Paper, Typography, useMediaQuery, type Theme } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { sideOf } from './api';
import { Conversation } from './Conversation';
import { useRefreshSupport, useTickets } from './hooks';
import { NewTicketDialog } from './NewTicketDialog';
import { TicketList, type StatusFilter } from './TicketList';

const PER_PAGE = 30;

/**
 * /support: the tickets on the left, the open conversation on the right; on narrow screens the two
 * are separate views (the open chat lives in the address, `?chat=<id>`, so Back returns to the list).
 * End users open tickets; carrier and support users answer and close them.
 */
export function SupportPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions<Kind>();
  const side = sideOf(permissions);
  const narrow = useMediaQuery<Theme>((t) => t.breakpoints.down('md'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('chat')) || null;
  // The filter lives in the address with the open chat, so a language switch or Back keeps it.
  const filter: StatusFilter = (['open', 'closed', 'all'] as const).find((f) => f === params.get('status')) ?? 'open';
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const refresh = useRefreshSupport();
  const allowed = !!permissions && canAccess(permissions, 'support', 'list');

  useEffect(() => {
    const id = setTimeout(() => {
      setQ(search.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(id);
  }, [search]);

  const tickets = useTickets(side, { page, per_page: PER_PAGE, ...(filter !== 'all' ? { status: filter } : {}), ...(q ? { q } : {}) });

  const select = (id: number | null, status: StatusFilter = filter) => {
    const next = new URLSearchParams(params);
    if (id) next.set('chat', String(id));
    else next.delete('chat');
    if (status === 'open') next.delete('status');
    else next.set('status', status);
    // On a phone, opening a chat is a step Back undoes; everything else replaces the address.
    setParams(next, { replace: !narrow || !id });
  };
  const setFilter = (f: StatusFilter) => {
    const next = new URLSearchParams(params);
    if (f === 'open') next.delete('status');
    else next.set('status', f);
    setParams(next, { replace: true });
  };

  if (isPending) return null;
  if (!allowed)
    return (
      <Alert severity="warning" sx={{ m: 2 }}>
        {translate('support.not_allowed')}
      </Alert>
    );

  const showList = !narrow || !selected;
  const showChat = !narrow || !!selected;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: { xs: 'calc(100dvh - 5rem - 24px)', md: 'calc(100dvh - 5rem - 48px)' }, minHeight: 420 }}>
      <Title title={translate('support.title')} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1.5, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h5" component="h1">
            {translate('support.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {translate(side === 'enduser' ? 'support.subtitle_enduser' : 'support.subtitle_carrier')}
          </Typography>
        </Box>
        {side === 'enduser' && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} data-testid="new-ticket">
            {translate('support.new_ticket')}
          </Button>
        )}
      </Box>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex', overflow: 'hidden' }}>
        {showList && (
          <Box sx={{ width: { xs: '100%', md: 340, lg: 380 }, flexShrink: 0, borderRight: { md: 1 }, borderColor: { md: 'divider' }, minHeight: 0 }}>
            <TicketList
              side={side}
              page={tickets.data}
              loading={tickets.isFetching && !tickets.data}
              error={tickets.error ? (tickets.error as Error).message : undefined}
              filter={filter}
              onFilter={(f) => {
                setFilter(f);
                setPage(1);
              }}
              search={search}
              onSearch={setSearch}
              onPage={setPage}
              selectedId={selected}
              onSelect={select}
            />
          </Box>
        )}
        {showChat && (
          <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>
            {selected ? (
              <Conversation
                key={selected}
                side={side}
                chatId={selected}
                onBack={narrow ? () => select(null) : undefined}
                onNewTicket={side === 'enduser' ? () => setCreating(true) : undefined}
              />
            ) : (
              <Box
                sx={{
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  justifyContent: 'center',
                  gap: 1,
                  color: 'text.secondary',
                  p: 3,
                  textAlign: 'center',
                }}
              >
                <ForumOutlined sx={{ fontSize: 56, opacity: 0.4 }} />
                <Typography>{translate('support.select_ticket')}</Typography>
              </Box>
            )}
          </Box>
        )}
      </Paper>
      {side === 'enduser' && (
        <NewTicketDialog
          open={creating}
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            refresh();
            select(t.id, filter === 'closed' ? 'open' : filter);
          }}
        />
      )}
    </Box>
  );
}
