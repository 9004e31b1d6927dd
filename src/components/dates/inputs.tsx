import { useRef } from 'react';
import { FieldTitle, ValidationError, useInput, useResourceContext, type InputProps, type Validator } from 'react-admin';
import type { SxProps, Theme } from '@mui/material';
import { PortalPickerField } from './PortalPickers';
import type { PickerKind } from './wire';

type PortalInputProps = Pick<InputProps, 'source' | 'label' | 'validate' | 'defaultValue' | 'disabled' | 'readOnly' | 'alwaysOn'> & {
  fullWidth?: boolean;
  min?: string;
  max?: string;
  helperText?: string | false;
  sx?: SxProps<Theme>;
  'data-field'?: string;
};

const asList = (v: Validator | Validator[] | undefined): Validator[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * A react-admin input around the portal's picker: the form holds the wire text (`YYYY-MM-DD`, `HH:mm`,
 * `YYYY-MM`), and an unfinished or out-of-range value fails the form with the picker's message.
 */
function PortalInput({
  kind,
  source,
  label,
  validate,
  defaultValue,
  disabled,
  readOnly,
  fullWidth,
  min,
  max,
  helperText,
  sx,
  ...rest
}: PortalInputProps & { kind: PickerKind }) {
  const resource = useResourceContext();
  const verdict = useRef<string | null>(null);
  const pickerCheck: Validator = () => verdict.current ?? undefined;
  const { field, fieldState, formState, isRequired } = useInput({
    source,
    defaultValue,
    // The picker's verdict first: an unfinished date says so rather than "required".
    validate: [pickerCheck, ...asList(validate)],
    format: (v: unknown) => (typeof v === 'string' ? v : ''),
    parse: (v: string) => (v === '' ? null : v),
  });
  const err = fieldState.error?.message;
  const showErr = !!err && (fieldState.isTouched || formState.isSubmitted);
  return (
    <PortalPickerField
      kind={kind}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      onValidity={(key) => {
        verdict.current = key;
      }}
      name={field.name}
      label={label === false ? undefined : <FieldTitle label={label as string} source={source} resource={resource} isRequired={false} />}
      required={isRequired}
      error={showErr}
      helperText={showErr ? <ValidationError error={err} /> : helperText || undefined}
      min={min}
      max={max}
      disabled={disabled}
      readOnly={readOnly}
      fullWidth={fullWidth}
      testId={rest['data-field'] ?? `input-${source}`}
      sx={sx ?? { mt: 1, mb: 0.5, minWidth: 180 }}
    />
  );
}

/** A date for react-admin forms and filters: 25/11/2026 on screen, `2026-11-25` in the form. */
export const PortalDateInput = (p: PortalInputProps) => <PortalInput kind="date" {...p} />;
/** A time: 14:30 on screen and in the form. */
export const PortalTimeInput = (p: PortalInputProps) => <PortalInput kind="time" {...p} />;
/** A month: 11/2026 on screen, `2026-11` in the form (a month and year picker). */
export const PortalMonthInput = (p: PortalInputProps) => <PortalInput kind="month" {...p} />;
