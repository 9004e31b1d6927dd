import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Box, type SxProps, type Theme } from '@mui/material';
import { it } from 'date-fns/locale';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { enUS, frFR, itIT } from '@mui/x-date-pickers/locales';
import { DATE_LOCALE, formatDate } from '../format';
import { SHOWN, fromWire, toWire, type PickerKind } from './wire';

/** The pickers' own texts (open the calendar, placeholders GG/MM/AAAA, JJ/MM/AAAA, DD/MM/YYYY) per portal language. */
const PICKER_TEXT = { it: itIT, en: enUS, fr: frFR } as const;

/**
 * The date-fns adapter in the portal's language (react-admin's locale, not the browser's): it and fr,
 * and en as en-GB, all day first and 24 h (docs/dates.md). Keyed on the language, so switching it redraws.
 */
export function PortalDates({ children }: { children: ReactNode }) {
  const [locale = 'it'] = useLocaleState();
  const texts = (PICKER_TEXT[locale as keyof typeof PICKER_TEXT] ?? itIT).components.MuiLocalizationProvider.defaultProps.localeText;
  return (
    <LocalizationProvider key={locale} dateAdapter={AdapterDateFns} adapterLocale={DATE_LOCALE[locale] ?? it} localeText={texts}>
      {children}
    </LocalizationProvider>
  );
}

export type PickerFieldProps = {
  kind: PickerKind;
  /** The wire value: `YYYY-MM-DD`, `HH:mm` or `YYYY-MM`; '' for none. */
  value: string;
  /** Called with the wire value; '' while the typed value is empty or unfinished. */
  onChange: (value: string) => void;
  label: ReactNode;
  required?: boolean;
  /** An error of the form (its message in `helperText`): shown before the picker's own. */
  error?: boolean;
  helperText?: ReactNode;
  /** Earliest and latest wire values allowed (dates and months). */
  min?: string;
  max?: string;
  /** On the field's root: tests find the field by it. */
  testId?: string;
  name?: string;
  size?: 'small' | 'medium';
  /** Filled like the portal's other inputs (react-admin's theme) unless said. */
  variant?: 'filled' | 'outlined';
  fullWidth?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  sx?: SxProps<Theme>;
  onBlur?: () => void;
  /** The picker's own verdict on what is typed: a message key, or null when it is fine. */
  onValidity?: (messageKey: string | null) => void;
};

/** The message key of a picker's validation error (MUI X reasons: invalidDate, minDate, maxTime, …). */
export function pickerMessage(kind: PickerKind, reason: string | null | undefined): string | null {
  if (!reason) return null;
  if (reason.startsWith('min') || reason === 'disablePast') return 'portal.dates.min';
  if (reason.startsWith('max') || reason === 'disableFuture') return 'portal.dates.max';
  return `portal.dates.invalid_${kind}`;
}

/**
 * A date, time or month typed in the portal's language: 25/11/2026, 14:30, 11/2026 in Italian, French and
 * English; the value in and out stays the wire text. A controlled field for any form (react-admin inputs: ./inputs).
 */
export function PortalPickerField(props: PickerFieldProps) {
  return (
    <PortalDates>
      <PickerField {...props} />
    </PortalDates>
  );
}

function PickerField({
  kind,
  value,
  onChange,
  label,
  required,
  error,
  helperText,
  min,
  max,
  testId,
  name,
  size = 'small',
  variant = 'filled',
  fullWidth,
  disabled,
  readOnly,
  sx,
  onBlur,
  onValidity,
}: PickerFieldProps) {
  const translate = useTranslate();
  const [locale = 'it'] = useLocaleState();
  // The picker keeps what is being typed (an unfinished 25/11/AAAA); the form only ever gets wire text.
  const [date, setDate] = useState<Date | null>(() => fromWire(kind, value));
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setDate(fromWire(kind, value));
    }
  }, [kind, value]);
  const [reason, setReason] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  // Some parts typed and others still empty (11/AAAA): MUI X keeps the value null without an error, the portal calls it unfinished.
  const box = useRef<HTMLDivElement>(null);
  const [unfinished, setUnfinished] = useState(false);
  const checkUnfinished = () => {
    const parts = Array.from(box.current?.querySelectorAll('[role="spinbutton"]') ?? []).map((p) => p.hasAttribute('aria-valuenow'));
    setUnfinished(parts.some(Boolean) && !parts.every(Boolean));
  };
  const messageKey = pickerMessage(kind, reason ?? (unfinished ? 'invalidDate' : null));
  useEffect(() => {
    onValidity?.(messageKey);
  }, [messageKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const limit = messageKey === 'portal.dates.min' ? min : messageKey === 'portal.dates.max' ? max : undefined;
  const shownLimit = limit ? (kind === 'month' ? formatDate(fromWire('month', limit), locale, SHOWN.month) : formatDate(limit, locale)) : '';
  const own = messageKey && !focused ? translate(messageKey, { limit: shownLimit }) : null;
  const change = (d: Date | null) => {
    setDate(d);
    if (d) setUnfinished(false);
    const wire = toWire(kind, d);
    if (wire !== sent.current) {
      sent.current = wire;
      // A whole date: its verdict now, before the form validates the change (the effect above runs after
      // the render, too late for a react-admin filter form, which applies a change only when valid).
      if (wire) onValidity?.(min && wire < min ? 'portal.dates.min' : max && wire > max ? 'portal.dates.max' : null);
      onChange(wire);
    }
  };
  const textField = {
    size,
    variant,
    fullWidth,
    required,
    name,
    error: !!error || !!own,
    helperText: error && helperText ? helperText : (own ?? helperText),
    'data-testid': testId,
    'data-kind': kind,
    sx,
  };
  const common = {
    label,
    value: date,
    onChange: change,
    onError: (r: string | null) => setReason(r),
    format: SHOWN[kind],
    disabled,
    readOnly,
    slotProps: { textField },
  };
  const dateLimits = { minDate: fromWire(kind, min) ?? undefined, maxDate: fromWire(kind, max) ?? undefined };
  return (
    // The field and its calendar (a portal, but one React tree): the picker's message waits until both lose focus.
    <Box
      ref={box}
      sx={{ display: 'contents' }}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        checkUnfinished();
        onBlur?.();
      }}
    >
      {kind === 'time' ? (
        <TimePicker {...common} ampm={false} />
      ) : kind === 'month' ? (
        <DatePicker {...common} {...dateLimits} views={['year', 'month']} openTo="month" />
      ) : (
        <DatePicker {...common} {...dateLimits} />
      )}
    </Box>
  );
}
