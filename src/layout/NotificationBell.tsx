import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Badge, Box, Button, CircularProgress, Divider, IconButton, ListItemText, MenuItem, MenuList, Popover, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import type { PortalDataProvider } from '../dataProvider';
import type { NotificationItem } from '../../model/notifications';
import { useFormat } from '../components/format';
import { NOTIFICATION_COUNT_KEY, NOTIFICATION_LIST_KEY, useNotificationCount } from './useNotificationCount';

/** One item's words in the user's language: "Richiesta n. 123 confermata da Acme". */
export function notificationText(translate: (key: string, opts?: Record<string, unknown>) => string, n: NotificationItem): string {
  const params = { id: n.transport_request_id, actor: n.actor ?? '' };
  if (n.event === 'created') return translate(n.actor ? 'notifications.created' : 'notifications.created_anonymous', params);
  return translate(n.actor ? `notifications.status.${n.status_id}` : `notifications.status_anonymous.${n.status_id}`, params);
}

/**
 * The app bar's bell (issue 22 item 4, docs/notifications.md): the unread count as a badge, a menu of the
 * latest notifications (unread ones marked), a click opens the request and marks its notifications read,
 * and "Segna tutte come lette". Shown to the kinds that see requests.
 */
export function NotificationBell() {
  const translate = useTranslate();
  const format = useFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { enabled, unread } = useNotificationCount();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const latest = useQuery({
    queryKey: NOTIFICATION_LIST_KEY,
    queryFn: () => dataProvider.notifications({ per_page: 10 }),
    enabled: enabled && !!anchor,
    staleTime: 0,
  });
  if (!enabled) return null;

  const refresh = (left?: number) => {
    if (left !== undefined) queryClient.setQueryData(NOTIFICATION_COUNT_KEY, left);
    return queryClient.invalidateQueries({ queryKey: ['notifications'] });
  };
  const open = async (n: NotificationItem) => {
    setAnchor(null);
    const ids = (latest.data?.data ?? []).filter((x) => !x.read && x.transport_request_id === n.transport_request_id).map((x) => x.id);
    navigate(`/transport-requests-visuals/${n.transport_request_id}/1`);
    if (ids.length) {
      const answer = await dataProvider.markNotificationsRead({ ids }).catch(() => null);
      await refresh(answer?.data.unread);
    }
  };
  const markAll = async () => {
    const answer = await dataProvider.markNotificationsRead({ all: true }).catch(() => null);
    await refresh(answer?.data.unread);
  };
  const items = latest.data?.data ?? [];
  const label = unread ? translate('notifications.bell_unread', { smart_count: unread }) : translate('notifications.bell');

  return (
    <>
      <IconButton
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="notification-bell"
      >
        <Badge badgeContent={unread || undefined} color="error" max={99} data-testid="notification-count" slotProps={{ badge: { 'aria-hidden': true } }}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { width: 380, maxWidth: 'calc(100vw - 16px)' }, role: 'dialog', 'aria-labelledby': 'notifications-title' } as Record<string, unknown>,
        }}
        data-testid="notification-menu"
      >
        <Box sx={{ px: 2, py: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography id="notifications-title" variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }}>
            {translate('notifications.title')}
          </Typography>
          <Button size="small" onClick={markAll} disabled={!unread} data-testid="notification-mark-all">
            {translate('notifications.mark_all')}
          </Button>
        </Box>
        <Divider />
        {latest.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
            <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
          </Box>
        )}
        {latest.isError && (
          <Typography role="alert" sx={{ px: 2, py: 1.5 }} color="error">
            {translate('notifications.error')}
          </Typography>
        )}
        {latest.isSuccess && !items.length && (
          <Typography sx={{ px: 2, py: 1.5 }} color="text.secondary">
            {translate('notifications.empty')}
          </Typography>
        )}
        {items.length > 0 && (
          <MenuList dense autoFocusItem aria-label={translate('notifications.title')} sx={{ maxHeight: '70vh', overflowY: 'auto' }}>
            {items.map((n) => (
              <MenuItem
                key={n.id}
                onClick={() => open(n)}
                data-testid="notification-item"
                data-read={n.read ? 'true' : 'false'}
                sx={{ whiteSpace: 'normal', alignItems: 'flex-start', gap: 1 }}
              >
                <Box aria-hidden sx={{ mt: 1, width: 8, height: 8, borderRadius: '50%', flexShrink: 0, bgcolor: n.read ? 'transparent' : 'primary.main' }} />
                <ListItemText
                  primary={notificationText(translate, n)}
                  secondary={`${format.dateTime(n.created_at)}${n.read ? '' : ` · ${translate('notifications.unread')}`}`}
                  slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600 } } }}
                />
              </MenuItem>
            ))}
          </MenuList>
        )}
      </Popover>
    </>
  );
}
