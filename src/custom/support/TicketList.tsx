import { useLocaleState, useTranslate } from 'react-admin';
import {
  Alert,
  Badge,
  Box,
  Chip,
  IconButton,
  InputAdornment,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import type { Side, Ticket, TicketPage } from './api';
import { shortWhen } from './format';

export type StatusFilter = 'open' | 'closed' | 'all';

export function StatusChip({ status }: { status: Ticket['status'] }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(status === 'open' ? 'support.status_open' : 'support.status_closed')}
      color={status === 'open' ? 'success' : 'default'}
      variant={status === 'open' ? 'filled' : 'outlined'}
      data-testid="status-chip"
      sx={{ height: 22, fontSize: 12 }}
    />
  );
}

function TicketRow({ ticket, side, selected, onSelect }: { ticket: Ticket; side: Side; selected: boolean; onSelect: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const unread = ticket.unread > 0;
  // For the carrier, an open ticket whose last word is the customer's still needs an answer.
  const awaiting = side === 'carrier' && ticket.status === 'open' && ticket.last_sender_side === 'enduser';
  const who = side === 'carrier' ? ticket.enduser_company_name : ticket.category_name;
  return (
    <ListItemButton
      selected={selected}
      onClick={onSelect}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      aria-current={selected ? 'true' : undefined}
      sx={{ display: 'block', py: 1.25, borderBottom: 1, borderColor: 'divider' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
        <Typography noWrap sx={{ flex: 1, fontWeight: unread ? 700 : 500 }} data-testid="ticket-subject">
          {ticket.subject}
        </Typography>
        <Typography variant="caption" color={unread ? 'primary' : 'text.secondary'} sx={{ whiteSpace: 'nowrap', fontWeight: unread ? 700 : 400 }}>
          {shortWhen(ticket.last_message_at, locale)}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.25 }}>
        <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
          {who}
          {side === 'carrier' && ticket.category_name ? ` · ${ticket.category_name}` : ''}
        </Typography>
        {unread && (
          <Badge
            badgeContent={ticket.unread}
            color="primary"
            max={99}
            data-testid="ticket-unread"
            aria-label={translate('support.unread', { smart_count: ticket.unread })}
            sx={{ mr: 1.5, '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
          />
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
        <Typography variant="body2" color={unread ? 'text.primary' : 'text.secondary'} noWrap sx={{ flex: 1, minWidth: 0 }}>
          {ticket.last_sender_name ? `${ticket.last_sender_name}: ` : ''}
          {ticket.last_message ?? ''}
        </Typography>
        {awaiting ? (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={translate('support.awaiting_reply')}
            sx={{ height: 22, fontSize: 12 }}
            data-testid="awaiting-chip"
          />
        ) : (
          <StatusChip status={ticket.status} />
        )}
      </Box>
    </ListItemButton>
  );
}

export interface TicketListProps {
  side: Side;
  page?: TicketPage;
  loading: boolean;
  error?: string;
  filter: StatusFilter;
  onFilter: (f: StatusFilter) => void;
  search: string;
  onSearch: (q: string) => void;
  onPage: (page: number) => void;
  selectedId: number | null;
  onSelect: (id: number) => void;
}

/** The left pane: status filter, search, the tickets (newest activity first) and a pager. */
export function TicketList(props: TicketListProps) {
  const translate = useTranslate();
  const { page, filter, search } = props;
  const rows = page?.data ?? [];
  const filtered = filter === 'closed' || !!search;
  // 'open' is the default view: with no open ticket it must not read as if there had never been one.
  const emptyKey = filtered ? 'support.empty_filtered' : `support.empty_${filter === 'open' ? 'open_' : ''}${props.side === 'enduser' ? 'enduser' : 'carrier'}`;
  const from = page && page.total ? (page.current_page - 1) * page.per_page + 1 : 0;
  const to = page ? from + rows.length - (rows.length ? 1 : 0) : 0;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="ticket-list">
      <Box sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1, borderBottom: 1, borderColor: 'divider' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          fullWidth
          value={filter}
          onChange={(_e, v) => v && props.onFilter(v)}
          aria-label={translate('support.filter')}
        >
          {(['open', 'closed', 'all'] as const).map((f) => (
            <ToggleButton key={f} value={f} data-testid={`filter-${f}`} sx={{ py: 0.5 }}>
              {translate(`support.filter_${f}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          size="small"
          value={search}
          onChange={(e) => props.onSearch(e.target.value)}
          placeholder={translate('support.search')}
          slotProps={{
            htmlInput: { 'aria-label': translate('support.search'), maxLength: 100 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {props.loading && <LinearProgress sx={{ height: 2 }} />}
      {props.error && (
        <Alert severity="error" sx={{ m: 1 }}>
          {translate('support.load_error', { message: props.error })}
        </Alert>
      )}
      <List disablePadding sx={{ flex: 1, overflowY: 'auto', minHeight: 0 }}>
        {rows.map((t) => (
          <ListItem key={t.id} disablePadding sx={{ display: 'block' }}>
            <TicketRow ticket={t} side={props.side} selected={t.id === props.selectedId} onSelect={() => props.onSelect(t.id)} />
          </ListItem>
        ))}
        {page && !rows.length && (
          <ListItem disablePadding>
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center', width: '100%' }} data-testid="tickets-empty">
              {translate(emptyKey)}
            </Typography>
          </ListItem>
        )}
      </List>
      {page && page.last_page > 1 && (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5, px: 1, py: 0.5, borderTop: 1, borderColor: 'divider' }}>
          <Typography variant="caption" color="text.secondary">
            {translate('support.page_of', { from, to, total: page.total })}
          </Typography>
          <IconButton
            size="small"
            disabled={page.current_page <= 1}
            onClick={() => props.onPage(page.current_page - 1)}
            aria-label={translate('support.previous_page')}
          >
            <ChevronLeft />
          </IconButton>
          <IconButton
            size="small"
            disabled={page.current_page >= page.last_page}
            onClick={() => props.onPage(page.current_page + 1)}
            aria-label={translate('support.next_page')}
          >
            <ChevronRight />
          </IconButton>
        </Box>
      )}
    </Box>
  );
}
