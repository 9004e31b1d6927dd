import { useGetIdentity, useNotify, usePermissions, useTranslate } from 'react-admin';
import { Alert, AlertTitle, Box, Button, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

/**
 * A carrier's invitation link (server.md §4): /access-request?carrier=<its company id>. Requests made
 * from it are addressed to the carrier and reviewed on this screen.
 */
export function InvitationLink() {
  const translate = useTranslate();
  const notify = useNotify();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  // Carrier companies only (company role 2): the public carriers lookup names them on the form.
  if (permissions !== 'carrier' || !identity?.company_id || identity.company?.company_role_id !== 2) return null;
  const link = `${window.location.origin}/#/access-request?carrier=${identity.company_id}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notify('request_access.copied', { type: 'info' });
    } catch {
      /* no clipboard (insecure context): the link stays visible to copy by hand */
    }
  };
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" startIcon={<ContentCopyIcon />} onClick={copy}>
          {translate('request_access.copy')}
        </Button>
      }
    >
      <AlertTitle>{translate('request_access.invite_title')}</AlertTitle>
      <Typography variant="body2">{translate('request_access.invite_text')}</Typography>
      <Box component="code" sx={{ display: 'block', mt: 0.5, wordBreak: 'break-all' }} data-testid="invitation-link">
        {link}
      </Box>
    </Alert>
  );
}
