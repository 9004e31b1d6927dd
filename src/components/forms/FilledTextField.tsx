import { useId, type ReactNode } from 'react';
import { FilledInput, FormControl, FormHelperText, InputLabel, type FilledInputProps } from '@mui/material';

type Props = Omit<FilledInputProps, 'error'> & { label: ReactNode; helperText?: ReactNode; error?: boolean };

/**
 * A text field as MUI's TextField draws it with the theme's defaults (react-admin's: filled, dense, small,
 * full width — the FormControl's own defaults in the theme), built from its parts like PlainTextField
 * (the sign-in's outlined one): TextField also brings Select, Menu, Popover and Modal, which a public page's
 * first paint does not need (issue 37: ~13 kB compressed on the tracking and access request pages' path).
 * For plain text inputs only; label, helper text and ids tied as TextField ties them.
 */
export function FilledTextField({ label, helperText, error, required, id, ...input }: Props) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const helperId = helperText ? `${fieldId}-helper-text` : undefined;
  return (
    <FormControl error={error} required={required}>
      <InputLabel htmlFor={fieldId} id={`${fieldId}-label`}>
        {label}
      </InputLabel>
      <FilledInput id={fieldId} aria-describedby={helperId} {...input} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
