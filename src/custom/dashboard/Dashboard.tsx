import { Link as RouterLink } from 'react-router-dom';
import { Title, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Paper, Typography } from '@mui/material';
import { AccessRequestsCard } from '../../resources/request-access/DashboardCard';
import { DashboardStats } from './DashboardStats';
import { DieselPriceWarning } from './DieselPriceWarning';

/**
 * The dashboard at /: greeting and header buttons ('calculate cost'; 'new request' for end users only),
 * then the role's statistics (DashboardStats).
 */
export function Dashboard() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions();
  return (
    <Box>
      <Title title={translate('text-dashboard')} />
      <Paper sx={{ p: 3, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Box>
          <Typography variant="h5" component="h1" data-testid="greeting">
            {translate('portal.greeting', { name: identity?.first_name ?? '' })}
          </Typography>
          <Typography color="text.secondary" data-testid="greeting-subtitle">
            {translate(permissions === 'admin' ? 'portal.greeting_subtitle_admin' : 'portal.greeting_subtitle')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button component={RouterLink} to="/calculate-cost" variant="contained">
            {translate('portal.calculate_cost')}
          </Button>
          {permissions === 'enduser' && (
            <Button component={RouterLink} to="/transport-requests" variant="outlined">
              {translate('portal.new_request')}
            </Button>
          )}
        </Box>
      </Paper>
      <DieselPriceWarning />
      <AccessRequestsCard />
      <DashboardStats />
    </Box>
  );
}
