import { Title, useGetIdentity, usePermissions, useTranslate } from 'react-admin';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { Calculator } from './Calculator';
import type { CalcKind } from './types';

/** /calculate-cost inside the shell, for admins, carriers and end users (calculator document §2). */
export default function CalculateCostPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const { identity } = useGetIdentity();
  if (isPending) return <CircularProgress />;
  // support users have no calculator (calculator document §6)
  if (!['admin', 'carrier', 'enduser'].includes(permissions)) return <Alert severity="warning">{translate('ra.page.access_denied')}</Alert>;
  const kind = permissions as CalcKind;
  return (
    <Box>
      <Title title={translate('calculator.title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('calculator.title')}
      </Typography>
      <Calculator kind={kind} companyDefaults={kind === 'enduser' ? (identity?.company ?? null) : null} />
    </Box>
  );
}
