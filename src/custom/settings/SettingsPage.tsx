import { Title, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { PasswordCard } from './PasswordCard';
import { ProfileCard } from './ProfileCard';
import { SessionsCard } from './SessionsCard';
import { MfaCard } from './MfaCard';
import { ApiKeysCard } from './ApiKeysCard';
import { WebhooksCard } from './WebhooksCard';
import { ConsigneeMailCard } from './ConsigneeMailCard';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';

/**
 * The email section: the field is disabled and read-only (accounts document §2). The email is the
 * sign-in name; admins (or the carrier, for its users) change it in user management, and the server's
 * changeEmail answers so (server/routes/visitor/profile.ts).
 */
function EmailCard() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <Card component="section" aria-labelledby="email-title">
      <CardContent sx={{ p: 3 }}>
        <Typography id="email-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate('accounts.settings.email')}
        </Typography>
        <TextField
          fullWidth
          name="email"
          label={translate('accounts.settings.email_address')}
          value={identity?.email ?? ''}
          disabled
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'settings-email' },
            // The hint says where the email is changed: readable, not greyed out with the disabled field.
            formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
          }}
          helperText={translate('accounts.settings.email_hint')}
        />
      </CardContent>
    </Card>
  );
}

/** /settings: profile, password, email, active sessions, (carrier kind, end users) the company's API keys and (carrier kind) its consignee mails (accounts document §2 "Account settings"). */
export function SettingsPage() {
  const translate = useTranslate();
  const { permissions: kind } = usePermissions<Kind>();
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={translate('accounts.settings.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('accounts.settings.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 3 }}>
          <ProfileCard />
          <MfaCard />
        </Box>
        <Box sx={{ display: 'grid', gap: 3 }}>
          <PasswordCard />
          <EmailCard />
        </Box>
      </Box>
      <SessionsCard />
      {canAccess(kind, 'api-keys', 'list') && <ApiKeysCard />}
      {canAccess(kind, 'webhooks', 'list') && <WebhooksCard />}
      {canAccess(kind, 'notification-settings', 'show') && <ConsigneeMailCard />}
    </Box>
  );
}
