import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Divider,
  IconButton,
  Typography,
} from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import LockIcon from '@mui/icons-material/Lock';
import { useChat, type ChatMessage, type Side } from './api';
import { Composer } from './Composer';
import { dayLabel, fullWhen, sameDay, timeOf } from './format';
import { useConversation } from './hooks';
import { StatusChip } from './TicketList';
import { TicketRequestLink } from './TicketRequestLink';

/**
 * One message: text only (React escapes it; no HTML is ever rendered from a message). "Own" is the
 * reader's side: for a carrier, its colleagues' and support's answers sit on the right too, with names.
 */
function Bubble({ m, own, read }: { m: ChatMessage; own: boolean; read: boolean }) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  return (
    <Box
      sx={{ display: 'flex', justifyContent: own ? 'flex-end' : 'flex-start', px: { xs: 1, sm: 2 }, py: 0.5 }}
      data-testid="message"
      data-side={m.sender_side}
    >
      <Box
        sx={{
          maxWidth: { xs: '88%', sm: '75%' },
          px: 1.5,
          py: 1,
          borderRadius: 2,
          borderTopRightRadius: own ? 4 : undefined,
          borderTopLeftRadius: own ? undefined : 4,
          bgcolor: own ? 'primary.main' : 'background.paper',
          color: own ? 'primary.contrastText' : 'text.primary',
          boxShadow: own ? 0 : 1,
        }}
      >
        <Typography variant="caption" sx={{ display: 'block', fontWeight: 600, opacity: own ? 0.9 : 0.75 }} data-testid="message-sender">
          {m.sender_name}
        </Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="message-body">
          {m.body}
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, mt: 0.25, opacity: 0.75 }}>
          <Typography variant="caption" component="time" dateTime={m.created_at} title={fullWhen(m.created_at, locale)}>
            {timeOf(m.created_at, locale)}
          </Typography>
          {own &&
            (read ? (
              <DoneAllIcon sx={{ fontSize: 15 }} titleAccess={translate('support.read')} data-testid="read-mark" />
            ) : (
              <DoneIcon sx={{ fontSize: 15 }} titleAccess={translate('support.sent')} data-testid="sent-mark" />
            ))}
        </Box>
      </Box>
    </Box>
  );
}

export interface ConversationProps {
  side: Side;
  chatId: number;
  onBack?: () => void;
  onNewTicket?: () => void;
}

/** The right pane: the ticket's header, its messages (polled live) and the composer, or the closed banner. */
export function Conversation({ side, chatId, onBack, onNewTicket }: ConversationProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useChat();
  const [locale] = useLocaleState();
  const { conversation: c, addOwn, setTicket, loadOlder, pollNow } = useConversation(side, chatId);
  const [confirming, setConfirming] = useState(false);
  const [closing, setClosing] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const seen = useRef<{ chatId: number; first: number; last: number; height: number }>({ chatId: 0, first: 0, last: 0, height: 0 });

  // Keep the view at the bottom when new messages arrive (if it was there), and in place when older ones load.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !c) return;
    const first = c.messages[0]?.id ?? 0;
    const last = c.messages.at(-1)?.id ?? 0;
    const prev = seen.current;
    if (prev.chatId !== c.chatId || !prev.last) el.scrollTop = el.scrollHeight;
    else if (first < prev.first && last === prev.last) el.scrollTop += el.scrollHeight - prev.height;
    else if (last > prev.last) {
      const nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 160 + (el.scrollHeight - prev.height);
      if (nearBottom || c.messages.at(-1)?.is_mine) el.scrollTop = el.scrollHeight;
    }
    seen.current = { chatId: c.chatId, first, last, height: el.scrollHeight };
  }, [c]);

  const ticket = c?.ticket;
  const closed = ticket?.status === 'closed';

  const send = async (text: string): Promise<string | null> => {
    try {
      const answer = await dataProvider.sendChatMessage(side, chatId, text);
      addOwn(answer.data);
      return null;
    } catch (err: any) {
      // Closed meanwhile (409): the next poll shows the banner.
      if (err?.status === 409) pollNow();
      const fields = err?.body?.errors ? Object.values(err.body.errors as Record<string, string[]>).flat() : [];
      return fields[0] ?? err?.message ?? 'Internal server error';
    }
  };

  const close = async () => {
    setClosing(true);
    try {
      const answer = await dataProvider.closeChat(chatId);
      setTicket(answer.data);
      notify(answer.message, { type: 'success' });
    } catch (err: any) {
      notify(err?.message ?? 'Internal server error', { type: 'error' });
      pollNow();
    } finally {
      setClosing(false);
      setConfirming(false);
    }
  };

  if (c?.error && !ticket) {
    return (
      <Box sx={{ p: 2 }}>
        {onBack && (
          <Button startIcon={<ArrowBack />} onClick={onBack} sx={{ mb: 1 }}>
            {translate('support.back')}
          </Button>
        )}
        <Alert severity="error">{c.error.message}</Alert>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="conversation">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: { xs: 1, sm: 2 }, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        {onBack && (
          <IconButton onClick={onBack} aria-label={translate('support.back')} data-testid="back">
            <ArrowBack />
          </IconButton>
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="h6" component="h2" noWrap sx={{ fontSize: '1.1rem' }} data-testid="conversation-subject">
              {ticket?.subject ?? '…'}
            </Typography>
            {ticket && <StatusChip status={ticket.status} />}
          </Box>
          {ticket &&
            (() => {
              const details = [
                translate('support.ticket_number', { id: ticket.id }),
                ticket.category_name,
                side === 'carrier' ? `${ticket.enduser_company_name} · ${ticket.enduser_user_name}` : null,
                translate('support.opened', { date: fullWhen(ticket.created_at, locale) }),
              ]
                .filter(Boolean)
                .join(' · ');
              return (
                <>
                  <Typography variant="body2" color="text.secondary" noWrap title={details} data-testid="conversation-details">
                    {details}
                  </Typography>
                  <TicketRequestLink requestId={ticket.transport_request_id} />
                </>
              );
            })()}
        </Box>
        {side === 'carrier' && ticket && !closed && (
          <Button
            variant="outlined"
            color="error"
            size="small"
            startIcon={<LockIcon />}
            onClick={() => setConfirming(true)}
            data-testid="close-chat"
            sx={{ flexShrink: 0 }}
          >
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
              {translate('support.close_chat')}
            </Box>
          </Button>
        )}
      </Box>

      <Box ref={scroller} sx={{ flex: 1, overflowY: 'auto', minHeight: 0, bgcolor: '#eef2f5', py: 1 }} data-testid="messages" aria-live="polite">
        {c?.loading && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={28} />
          </Box>
        )}
        {c?.hasOlder && (
          <Box sx={{ textAlign: 'center', py: 1 }}>
            <Button size="small" onClick={() => void loadOlder()}>
              {translate('support.load_older')}
            </Button>
          </Box>
        )}
        {c && !c.loading && !c.messages.length && (
          <Typography color="text.secondary" sx={{ textAlign: 'center', p: 3 }}>
            {translate('support.no_messages')}
          </Typography>
        )}
        {c?.messages.map((m, i) => (
          <Fragment key={m.id}>
            {(i === 0 || !sameDay(c.messages[i - 1].created_at, m.created_at)) && (
              <Divider sx={{ my: 1, px: 2, '&::before, &::after': { borderColor: 'rgba(0,0,0,0.08)' } }}>
                <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'capitalize' }}>
                  {dayLabel(m.created_at, locale, { today: translate('support.today'), yesterday: translate('support.yesterday') })}
                </Typography>
              </Divider>
            )}
            <Bubble m={m} own={m.sender_side === side} read={m.id <= c.readUpTo} />
          </Fragment>
        ))}
      </Box>

      {ticket &&
        (closed ? (
          <Alert
            severity="info"
            icon={<LockIcon />}
            sx={{ borderRadius: 0, alignItems: 'center' }}
            data-testid="closed-banner"
            action={
              side === 'enduser' && onNewTicket ? (
                <Button color="inherit" size="small" onClick={onNewTicket} sx={{ whiteSpace: 'nowrap' }}>
                  {translate('support.new_ticket')}
                </Button>
              ) : undefined
            }
          >
            {ticket.closed_by_name
              ? translate('support.closed_banner', { name: ticket.closed_by_name, date: fullWhen(ticket.closed_at ?? ticket.last_message_at, locale) })
              : translate('support.closed_banner_anon', { date: fullWhen(ticket.closed_at ?? ticket.last_message_at, locale) })}
            {side === 'enduser' ? ` ${translate('support.closed_hint_enduser')}` : ''}
          </Alert>
        ) : (
          <Composer key={chatId} onSend={send} />
        ))}

      <Dialog open={confirming} onClose={() => !closing && setConfirming(false)} aria-labelledby="close-chat-title">
        <DialogTitle id="close-chat-title">{translate('support.close_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('support.close_text')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={closing}>
            {translate('support.cancel')}
          </Button>
          <Button onClick={() => void close()} color="error" variant="contained" disabled={closing} data-testid="confirm-close">
            {translate('support.close_chat')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
