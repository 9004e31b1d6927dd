import { RadioButtonGroupInput, useRecordContext, useTranslate, type RadioButtonGroupInputProps } from 'react-admin';
import { Box, FormControlLabel, Radio, RadioGroup } from '@mui/material';

/** status_id 1 reads "Open" in blue, anything else "Close" in red (accounts document §2, shared table). */
export function StatusField({ source = 'status_id' }: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const open = Number(record[source]) === 1;
  return (
    <Box component="span" data-testid="status" data-open={open ? '1' : '0'} sx={{ color: open ? 'info.main' : 'error.main', fontWeight: 600 }}>
      {translate(open ? 'portal.status.open' : 'portal.status.close')}
    </Box>
  );
}

/** The status radio controls of a form: active (1) or inactive (0). */
export function StatusRadioInput(props: Omit<RadioButtonGroupInputProps, 'choices'>) {
  return (
    <RadioButtonGroupInput
      source="status_id"
      {...props}
      choices={[
        { id: 1, name: 'portal.status.active' },
        { id: 0, name: 'portal.status.inactive' },
      ]}
    />
  );
}

/** The status radio controls of a list: all, open (1) or closed (0); `value` is '' for all. */
export function StatusFilterRadios({ value, onChange }: { value: '' | '0' | '1'; onChange: (v: '' | '0' | '1') => void }) {
  const translate = useTranslate();
  return (
    <RadioGroup row value={value} onChange={(e) => onChange(e.target.value as '' | '0' | '1')} aria-label={translate('portal.status.label')}>
      <FormControlLabel value="" control={<Radio size="small" />} label={translate('portal.status.all')} />
      <FormControlLabel value="1" control={<Radio size="small" />} label={translate('portal.status.open')} />
      <FormControlLabel value="0" control={<Radio size="small" />} label={translate('portal.status.close')} />
    </RadioGroup>
  );
}
