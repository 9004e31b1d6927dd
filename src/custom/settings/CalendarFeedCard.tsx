import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { ConfirmActionDialog, useConfirmedAction } from './SettingsListCard';

const KEY = ['account', 'calendar-feed'];

/** The address just made, with its copy button: shown until the card is left (the server keeps only its hash). */
function FreshUrl({ url }: { url: string }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState<boolean | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <Stack spacing={1.5} data-testid="calendar-feed-fresh">
      <Alert severity="warning">{translate('calendar_feed.url_warning')}</Alert>
      <TextField
        fullWidth
        multiline
        label={translate('calendar_feed.url_label')}
        value={url}
        onFocus={(e) => e.target.select()}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'calendar-feed-url', spellCheck: false },
          input: { sx: { fontFamily: 'monospace', wordBreak: 'break-all' } },
        }}
      />
      <Box>
        <Button variant="outlined" onClick={() => void copy()} data-testid="calendar-feed-copy">
          {translate('calendar_feed.copy')}
        </Button>
      </Box>
      {copied !== null && (
        <Typography role="status" variant="body2" color={copied ? 'success.main' : 'error'}>
          {translate(copied ? 'calendar_feed.copied' : 'calendar_feed.copy_failed')}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * "Calendario" (issue 36 item 4, docs/calendar-feed.md): the company's private iCalendar address of its
 * pickups and deliveries. The company's main account turns it on (the address shows once, with a copy
 * button: only its hash is kept, like an API key), makes a new one (after a confirmation; the old one stops
 * at once) or turns it off; other users see whether it is on. How to add it to Google, Outlook and Apple.
 */
export function CalendarFeedCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const feed = useQuery({ queryKey: KEY, queryFn: () => dataProvider.calendarFeed(), staleTime: 0 });
  const [url, setUrl] = useState<string | null>(null);
  const [enabling, setEnabling] = useState(false);
  const regenerating = useConfirmedAction<true>({
    queryKey: KEY,
    run: async () => {
      const answer = await dataProvider.regenerateCalendarFeed();
      setUrl(answer.data.url);
      return answer;
    },
  });
  const disabling = useConfirmedAction<true>({
    queryKey: KEY,
    run: async () => {
      const answer = await dataProvider.disableCalendarFeed();
      setUrl(null);
      return answer;
    },
  });

  async function enable() {
    setEnabling(true);
    try {
      const answer = await dataProvider.enableCalendarFeed();
      setUrl(answer.data.url);
      notify(answer.message, { type: 'success' });
    } catch (e) {
      notify(normalizeError(e).message, { type: 'error' });
    } finally {
      setEnabling(false);
      await queryClient.invalidateQueries({ queryKey: KEY });
    }
  }

  const t = (key: string, params?: Record<string, unknown>) => translate(`calendar_feed.${key}`, params);
  const state = feed.data?.data;
  return (
    <Card
      component="section"
      aria-labelledby="calendar-feed-title"
      sx={{ mt: 3 }}
      data-testid="calendar-feed-card"
      data-enabled={state ? String(state.enabled) : undefined}
    >
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="calendar-feed-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('title')}
        </Typography>
        {feed.isPending && <CircularProgress size={24} aria-label={translate('ra.page.loading')} />}
        {feed.isError && <Alert severity="error">{t('load_error')}</Alert>}
        {state && (
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t('intro', { back: state.days_back, ahead: state.days_ahead })}
            </Typography>
            <Box data-testid="calendar-feed-state">
              <Typography variant="body1">
                {state.enabled ? t('on', { at: dateTime(state.created_at ?? ''), by: state.created_by_name ?? '' }) : t('off')}
              </Typography>
              {state.enabled && (
                <Typography variant="body2" color="text.secondary">
                  {state.last_fetched_at ? t('last_read', { at: dateTime(state.last_fetched_at) }) : t('never_read')}
                </Typography>
              )}
            </Box>
            {url && <FreshUrl url={url} />}
            {state.enabled && !url && state.can_manage && <Alert severity="info">{t('hidden')}</Alert>}
            {!state.can_manage && <Alert severity="info">{t('not_manager')}</Alert>}
            {state.can_manage && (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                {!state.enabled && (
                  <Button variant="contained" onClick={() => void enable()} disabled={enabling} data-testid="calendar-feed-enable">
                    {t('enable')}
                  </Button>
                )}
                {state.enabled && (
                  <>
                    <Button variant="outlined" onClick={() => regenerating.ask(true)} disabled={regenerating.busy} data-testid="calendar-feed-regenerate">
                      {t('regenerate')}
                    </Button>
                    <Button color="warning" onClick={() => disabling.ask(true)} disabled={disabling.busy} data-testid="calendar-feed-disable">
                      {t('disable')}
                    </Button>
                  </>
                )}
              </Box>
            )}
            <Box component="section" aria-labelledby="calendar-feed-how">
              <Typography id="calendar-feed-how" variant="subtitle1" component="h3" sx={{ mb: 0.5 }}>
                {t('how_title')}
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 0.5 } }}>
                {['how_google', 'how_outlook', 'how_apple'].map((k) => (
                  <Typography component="li" variant="body2" key={k}>
                    {t(k)}
                  </Typography>
                ))}
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('how_refresh')}
              </Typography>
            </Box>
          </Stack>
        )}
        <ConfirmActionDialog
          action={regenerating}
          title={t('regenerate_title')}
          content={t('regenerate_text')}
          confirm={t('regenerate')}
          cancel={t('cancel')}
        />
        <ConfirmActionDialog action={disabling} title={t('disable_title')} content={t('disable_text')} confirm={t('disable')} cancel={t('cancel')} />
      </CardContent>
    </Card>
  );
}
