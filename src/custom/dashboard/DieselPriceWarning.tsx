import { Link as RouterLink } from 'react-router-dom';
import { useGetList, useLocaleState, usePermissions, useTranslate } from 'react-admin';
import { Alert, Button } from '@mui/material';
import { romeMonth } from '../../../model/fuel';

/**
 * The admin's reminder (issue 21): the diesel reference price of the current month is missing, so the
 * carriers' fuel surcharges are computed from an earlier month's. Read through the declared resource.
 */
export function DieselPriceWarning() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { permissions } = usePermissions();
  const month = romeMonth();
  const isAdmin = permissions === 'admin';
  const { data, isPending, isError } = useGetList('diesel-prices', { pagination: { page: 1, perPage: 5 }, filter: { q: month } }, { enabled: isAdmin });
  if (!isAdmin || isPending || isError || data?.some((r) => r.month === month)) return null;
  const [y, m] = month.split('-').map(Number);
  const name = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      data-testid="diesel-missing"
      action={
        <Button component={RouterLink} to="/diesel-prices" color="inherit" size="small">
          {translate('portal.diesel_add')}
        </Button>
      }
    >
      {translate('portal.diesel_missing', { month: name })}
    </Alert>
  );
}
