import { Box, Typography } from '@mui/material';
import type { TrackData } from '../../../model/publicTracking';
import type { AreaMessages } from '../../i18n';
import { useFormat } from '../../components/format';
import { requestMessages } from '../transportRequests/messages';
import { trackingMessages } from './messages';
import { usePageTranslate } from './pageTranslate';

/**
 * The tracking page's answer (TrackingPage.tsx loads this file when a lookup starts; issue 37): the page's
 * texts with the statuses' names of the transport requests' messages, which only an answer shows.
 */
const withStatuses = (l: 'it' | 'en' | 'fr') => ({
  tracking: { ...(trackingMessages[l].tracking as Record<string, unknown>), statuses: requestMessages[l].requests.statuses },
});
const resultMessages: AreaMessages = { it: withStatuses('it'), en: withStatuses('en'), fr: withStatuses('fr') };

/** The colour of a status: refused and cancelled in red, delivered in green, the others in the brand's. */
const statusColour = (id: number) => (id === 4 || id === 7 ? 'error.main' : id === 6 ? 'success.main' : id === 1 ? 'text.secondary' : 'primary.main');

/** A city with its country's name in the user's language ("Roma, Italia"); the country alone, or null. */
function usePlace() {
  const { locale } = useFormat();
  let regions: Intl.DisplayNames | null = null;
  try {
    regions = new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    regions = null;
  }
  return (city: string | null, country: string | null) => {
    let countryName: string | null = null;
    try {
      countryName = country ? (regions?.of(country) ?? country) : null;
    } catch {
      countryName = country;
    }
    return [city, countryName].filter(Boolean).join(', ') || null;
  };
}

/**
 * What the consignee reads of the shipment (issue 35 item 14): the route's cities, the carrier's name and
 * the expected delivery day (the server's, from the lead time in working days), as a list of terms.
 */
function TrackingDetails({ data }: { data: TrackData }) {
  const translate = usePageTranslate(resultMessages);
  const { date } = useFormat();
  const place = usePlace();
  const from = place(data.origin_city, data.origin_country);
  const to = place(data.destination_city, data.destination_country);
  const rows: Array<[string, string, string, string | null]> = [];
  if (from || to)
    rows.push([
      'route',
      translate('tracking.route'),
      translate('tracking.route_text', { from: from ?? translate('tracking.unknown'), to: to ?? translate('tracking.unknown') }),
      null,
    ]);
  if (data.carrier_name) rows.push(['carrier', translate('tracking.carrier'), data.carrier_name, null]);
  if (data.expected_delivery)
    rows.push([
      'expected',
      translate('tracking.expected'),
      date(data.expected_delivery, 'EEEE d MMMM yyyy'),
      data.lead_time === null ? null : data.lead_time === 1 ? translate('tracking.lead_one') : translate('tracking.lead_many', { n: data.lead_time }),
    ]);
  if (!rows.length) return null;
  return (
    <Box
      component="dl"
      aria-label={translate('tracking.details_aria')}
      data-testid="tracking-details"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 }, mt: 2, mb: 0 }}
    >
      {rows.map(([key, term, value, hint]) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }} data-testid={`tracking-${key}`}>
            {value}
            {hint ? (
              <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block', fontWeight: 400 }}>
                {hint}
              </Typography>
            ) : null}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The status in large type, the route, carrier and expected day, then the events oldest first as a vertical line of dots with their dates. */
export function TrackingResult({ data }: { data: TrackData }) {
  const translate = usePageTranslate(resultMessages);
  const { dateTime } = useFormat();
  const statusName = (id: number, fallback?: string) => translate(`tracking.statuses.${id}`, { _: fallback ?? String(id) });
  return (
    <Box data-testid="tracking-result">
      <Box sx={{ borderLeft: 6, borderColor: statusColour(data.status_id), bgcolor: 'action.hover', borderRadius: 1, px: 2, py: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('tracking.request', { code: data.code })}
        </Typography>
        <Typography variant="h6" component="h2" sx={{ fontSize: '1rem', fontWeight: 500 }}>
          {translate('tracking.status')}
        </Typography>
        <Typography sx={{ fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.25 }} data-testid="tracking-status" data-status={data.status_id}>
          {statusName(data.status_id, data.status)}
        </Typography>
        {/* Issue 36: a delivery says when, never who signed or the proof itself (the answer carries neither). */}
        {data.status_id === 6 && data.delivered_at && (
          <Typography sx={{ fontWeight: 500 }} data-testid="tracking-delivered-at">
            {translate('tracking.delivered_on', { date: dateTime(data.delivered_at) })}
          </Typography>
        )}
      </Box>
      <TrackingDetails data={data} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1.5, fontSize: '1.1rem' }}>
        {translate('tracking.history')}
      </Typography>
      {data.events.length === 0 ? (
        <Typography color="text.secondary">{translate('tracking.empty')}</Typography>
      ) : (
        <Box component="ol" aria-label={translate('tracking.history_aria')} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="tracking-events">
          {data.events.map((e, i) => {
            const last = i === data.events.length - 1;
            return (
              <Box
                component="li"
                key={i}
                data-testid="tracking-event"
                data-event={e.event}
                sx={{
                  position: 'relative',
                  pl: 3.5,
                  pb: last ? 0 : 2.5,
                  '&::before': last ? undefined : { content: '""', position: 'absolute', left: 6, top: 16, bottom: 0, width: 2, bgcolor: 'divider' },
                }}
              >
                <Box
                  aria-hidden
                  sx={{
                    position: 'absolute',
                    left: 0,
                    top: 3,
                    width: 14,
                    height: 14,
                    borderRadius: '50%',
                    bgcolor: e.event === 'status_changed' ? statusColour(e.status_id) : 'grey.500',
                    boxShadow: last ? (t) => `0 0 0 3px ${t.palette.background.paper}, 0 0 0 5px ${t.palette.primary.light}` : undefined,
                  }}
                />
                <Typography variant="subtitle2" component="p">
                  {translate(`tracking.events.${e.event}`, { status: statusName(e.status_id) })}
                </Typography>
                <Typography variant="body2" color="text.secondary" component="p">
                  <time dateTime={e.at}>{dateTime(e.at)}</time>
                </Typography>
              </Box>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
