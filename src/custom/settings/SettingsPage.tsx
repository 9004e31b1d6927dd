import { useEffect, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Title, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import {
  Box,
  Card,
  CardContent,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Tab,
  Tabs,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { PasswordCard } from './PasswordCard';
import { ProfileCard } from './ProfileCard';
import { SessionsCard } from './SessionsCard';
import { MfaCard } from './MfaCard';
import { ApiKeysCard } from './ApiKeysCard';
import { WebhooksCard } from './WebhooksCard';
import { ConsigneeMailCard } from './ConsigneeMailCard';
import { CalendarFeedCard } from './CalendarFeedCard';
import { LabelSettingsCard } from './LabelSettingsCard';
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

/** A section of the settings: its address (`#/settings/<slug>`), its index label and its cards. */
interface Section {
  slug: string;
  label: string;
  show: (kind: Kind | undefined) => boolean;
  content: () => ReactNode;
}

const always = () => true;
const SECTIONS: Section[] = [
  {
    slug: 'profile',
    label: 'profile',
    show: always,
    content: () => (
      <Box sx={{ display: 'grid', gap: 3 }}>
        <ProfileCard />
        <EmailCard />
      </Box>
    ),
  },
  { slug: 'password', label: 'password', show: always, content: () => <PasswordCard /> },
  { slug: 'two-step', label: 'two_step', show: always, content: () => <MfaCard /> },
  { slug: 'sessions', label: 'sessions', show: always, content: () => <SessionsCard /> },
  { slug: 'api-keys', label: 'api_keys', show: (kind) => canAccess(kind, 'api-keys', 'list'), content: () => <ApiKeysCard /> },
  { slug: 'webhooks', label: 'webhooks', show: (kind) => canAccess(kind, 'webhooks', 'list'), content: () => <WebhooksCard /> },
  { slug: 'mails', label: 'mails', show: (kind) => canAccess(kind, 'notification-settings', 'show'), content: () => <ConsigneeMailCard /> },
  { slug: 'calendar', label: 'calendar', show: (kind) => canAccess(kind, 'calendar-feed', 'show'), content: () => <CalendarFeedCard /> },
  // the carrier's GS1 prefix (docs/pallet-labels.md); an admin sets a carrier's through /admin/label_settings
  { slug: 'labels', label: 'labels', show: (kind) => kind === 'carrier' && canAccess(kind, 'label-settings', 'show'), content: () => <LabelSettingsCard /> },
];

/** The section an address names (`/settings/<slug>`, or `/settings?section=<slug>`); the first one otherwise. */
function sectionOf(shown: readonly Section[], path: string | undefined, query: string | null): Section {
  return shown.find((s) => s.slug === (path ?? query)) ?? shown[0]!;
}

/**
 * /settings (accounts document §2 "Account settings"), in sections (issue 35 item 10): profile and e-mail,
 * password, two-step sign-in, active sessions, and what the caller's role allows of API keys, webhooks and
 * the consignee mails. One section shows at a time; a desktop picks it from a side index, a phone from
 * scrollable tabs above it. Each has its own address (`#/settings/sessions`; `?section=sessions` works too),
 * so a link, a bookmark or the browser's back button lands on it. `/settings` alone shows the profile.
 */
export function SettingsPage() {
  const translate = useTranslate();
  const { permissions: kind } = usePermissions<Kind>();
  const { section: path } = useParams();
  const [query] = useSearchParams();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const shown = SECTIONS.filter((s) => s.show(kind));
  const current = sectionOf(shown, path, query.get('section'));
  const label = (s: Section) => translate(`accounts.settings.sections.${s.label}`);
  const to = (s: Section) => `/settings/${s.slug}`;
  const tabId = (s: Section) => `settings-tab-${s.slug}`;

  // A new section starts at its top (the index stays where it is on a desktop).
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [current.slug]);

  const index = phone ? (
    // Every section in sight on a phone: the tabs wrap onto a second or third row instead of scrolling
    // sideways behind arrows (where the selected tab at the end of the row was half hidden). A wrapped row
    // cannot carry MUI's sliding underline, so the selected tab is filled instead.
    <Tabs
      value={current.slug}
      aria-label={translate('accounts.settings.sections_label')}
      slotProps={{ indicator: { sx: { display: 'none' } } }}
      sx={{
        mb: 2,
        pb: 1,
        borderBottom: 1,
        borderColor: 'divider',
        maxWidth: '100%',
        '& .MuiTabs-flexContainer': { flexWrap: 'wrap', gap: 0.5 },
        '& .MuiTab-root': { minHeight: 36, minWidth: 0, px: 1.5, py: 0.5, borderRadius: 1 },
        '& .MuiTab-root.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText' },
      }}
      data-testid="settings-tabs"
    >
      {shown.map((s) => (
        <Tab
          key={s.slug}
          value={s.slug}
          label={label(s)}
          component={Link}
          to={to(s)}
          replace
          id={tabId(s)}
          aria-controls="settings-section"
          data-testid={`settings-tab-${s.slug}`}
        />
      ))}
    </Tabs>
  ) : (
    <Box component="nav" aria-label={translate('accounts.settings.sections_label')} sx={{ position: 'sticky', top: 88 }} data-testid="settings-index">
      <List dense disablePadding sx={{ bgcolor: 'background.paper', borderRadius: 1, border: 1, borderColor: 'divider' }}>
        {shown.map((s) => (
          <ListItem key={s.slug} disablePadding>
            <ListItemButton
              component={Link}
              to={to(s)}
              selected={s.slug === current.slug}
              aria-current={s.slug === current.slug ? 'page' : undefined}
              id={tabId(s)}
              data-testid={`settings-index-${s.slug}`}
            >
              <ListItemText primary={label(s)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );

  return (
    <Box sx={{ maxWidth: 1100, minWidth: 0 }}>
      <Title title={translate('accounts.settings.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('accounts.settings.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '220px minmax(0, 1fr)' }, alignItems: 'start' }}>
        {index}
        <Box
          id="settings-section"
          {...(phone ? { role: 'tabpanel', 'aria-labelledby': tabId(current) } : { component: 'div' })}
          data-testid="settings-section"
          data-section={current.slug}
          // The cards' own top margins (made for the long page) are not needed when a section stands alone.
          sx={{ minWidth: 0, '& > .MuiCard-root, & > .MuiBox-root > .MuiCard-root': { mt: 0 } }}
        >
          {current.content()}
        </Box>
      </Box>
    </Box>
  );
}
