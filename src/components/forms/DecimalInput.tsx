import { useRef } from 'react';
import { TextInput, useLocaleState, type TextInputProps, type Validator } from 'react-admin';
import { readDecimal, showDecimal } from './decimal';

/** Decimal text as the server answers it ("4.50"): a number, though not parsed from typing. */
const CANONICAL = /^-?\d+(\.\d+)?$/;
/**
 * A text that reads as no number: said in the user's language, before any other rule. What is typed is
 * stored as a number when it reads as one, so a text left in the form is either the server's ("4.50") or
 * something that is no number.
 */
const readable: Validator = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && !CANONICAL.test(value.trim()) ? 'portal.validation.number' : undefined;

const asList = (v: TextInputProps['validate']): Validator[] => (v ? (Array.isArray(v) ? v : [v]) : []);

/**
 * The one decimal input of the portal's forms (money, prices, percentages, ratios): a text box with a
 * decimal keypad that takes the user's decimal mark (decimal.ts: 1,634 in Italian and French, 1.634 in
 * English), keeps what is typed while typing, stores a number, and writes the value back in the user's
 * language on leaving the field. A text that is no number stays in the field and is refused with
 * `portal.validation.number` (never silently changed, never the browser's bubble).
 */
export function DecimalInput({
  validate,
  slotProps,
  onBlur,
  ...props
}: Omit<TextInputProps, 'type' | 'format' | 'parse'> & { min?: number; max?: number; step?: number }) {
  const [locale = 'it'] = useLocaleState();
  // What the user typed last, shown as typed while it means the stored value ("1," while typing "1,6").
  const typed = useRef<string | null>(null);
  const { min: _min, max: _max, step: _step, ...rest } = props as typeof props & { min?: number; max?: number; step?: number };
  const htmlInput = (slotProps as any)?.htmlInput ?? {};
  return (
    <TextInput
      {...rest}
      validate={[readable, ...asList(validate)]}
      format={(v: unknown) => {
        if (typed.current !== null && readDecimal(typed.current, locale) === v) return typed.current;
        return showDecimal(v, locale);
      }}
      parse={(text: string) => {
        typed.current = text;
        return readDecimal(text, locale);
      }}
      onBlur={(e: any) => {
        typed.current = null;
        onBlur?.(e);
      }}
      slotProps={{ ...slotProps, htmlInput: { inputMode: 'decimal', autoComplete: 'off', ...htmlInput } } as TextInputProps['slotProps']}
    />
  );
}
