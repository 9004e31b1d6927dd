import { useTranslate } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { useFormat } from '../../components/format';
import type { TimelineEntry } from './api';
import { Section } from './parts';

/**
 * The request's timeline (issue 22): each change, oldest first, as a vertical list with a dot per event:
 * what happened (the new status for a status change), when (the locale's date and time), who and with
 * which role, and the note a carrier wrote when confirming or refusing.
 */
export function Timeline({ entries }: { entries: TimelineEntry[] }) {
  const translate = useTranslate();
  const { dateTime } = useFormat();
  return (
    <Section title={translate('request_timeline.title')} testId="timeline-card">
      {entries.length === 0 ? (
        <Typography color="text.secondary">{translate('request_timeline.empty')}</Typography>
      ) : (
        <Box component="ol" aria-label={translate('request_timeline.aria')} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="timeline">
          {entries.map((e, i) => (
            <Box
              component="li"
              key={i}
              data-testid="timeline-entry"
              data-event={e.event}
              sx={{
                position: 'relative',
                pl: 3,
                pb: i === entries.length - 1 ? 0 : 2,
                // the line joining the dots
                '&::before':
                  i === entries.length - 1 ? undefined : { content: '""', position: 'absolute', left: 5, top: 14, bottom: 0, width: 2, bgcolor: 'divider' },
              }}
            >
              <Box
                aria-hidden
                sx={{
                  position: 'absolute',
                  left: 0,
                  top: 4,
                  width: 12,
                  height: 12,
                  borderRadius: '50%',
                  bgcolor: e.event === 'status_changed' ? (e.status_id === 4 || e.status_id === 7 ? 'error.main' : 'success.main') : 'primary.main',
                }}
              />
              <Typography variant="subtitle2" component="p">
                {translate(`request_timeline.events.${e.event}`, { status: translate(`requests.statuses.${e.status_id}`) })}
              </Typography>
              <Typography variant="body2" color="text.secondary" component="p">
                {dateTime(e.at)}
                {' · '}
                {e.by.name
                  ? translate('request_timeline.by', { name: e.by.name, role: translate(`request_timeline.roles.${e.by.role}`) })
                  : translate(`request_timeline.roles.${e.by.role}`)}
              </Typography>
              {e.note && (
                <Typography variant="body2" component="p" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }} data-testid="timeline-note">
                  {e.note}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Section>
  );
}
