import { useTranslate } from 'react-admin';
import { Chip } from '@mui/material';

/** Active (status 1) in green, inactive in red. `base` is the resource's messages key. */
export function StatusChip({ value, base }: { value: unknown; base: string }) {
  const translate = useTranslate();
  const active = Number(value) === 1;
  return (
    <Chip
      size="small"
      label={translate(`${base}.status.${active ? 'active' : 'inactive'}`)}
      color={active ? 'success' : 'error'}
      variant={active ? 'filled' : 'outlined'}
      data-testid="status"
      data-active={active ? '1' : '0'}
    />
  );
}
