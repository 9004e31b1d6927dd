import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Link } from '@mui/material';
import LocalShippingOutlined from '@mui/icons-material/LocalShippingOutlined';

/**
 * The transport request a ticket is about (issue 35 item 4), as a link to its screen: "Richiesta n. 42". Both
 * sides may open it (the end user's company booked it, the carrier handles it); nothing for a general ticket.
 */
export function TicketRequestLink({ requestId }: { requestId?: number | null }) {
  const translate = useTranslate();
  if (!requestId) return null;
  return (
    <Link
      component={RouterLink}
      to={`/transport-requests-visuals/${requestId}/1`}
      variant="body2"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 500 }}
      data-testid="ticket-request-link"
    >
      <LocalShippingOutlined sx={{ fontSize: 18 }} aria-hidden />
      {translate('open_request.ticket_request', { id: requestId })}
    </Link>
  );
}
