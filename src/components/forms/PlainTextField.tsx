import { useId, type ReactNode } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput, type OutlinedInputProps } from '@mui/material';

type Props = Omit<OutlinedInputProps, 'label' | 'error'> & { label: ReactNode; helperText?: ReactNode; error?: boolean };

/**
 * An outlined text field as MUI's TextField draws it (label, outline, helper text tied by
 * aria-describedby), built from its parts: TextField also brings Select, Menu, Popover and Modal,
 * which the sign-in page's first load does not need (issue 18). For plain text inputs only.
 */
export function PlainTextField({ label, helperText, error, required, fullWidth = true, id, ...input }: Props) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const helperId = helperText ? `${fieldId}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" error={error} required={required} fullWidth={fullWidth}>
      <InputLabel htmlFor={fieldId}>{label}</InputLabel>
      <OutlinedInput id={fieldId} label={label} aria-describedby={helperId} {...input} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
