import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Box } from '@mui/material';

export const OTP_LENGTH = 4;
export const emptyOtp = () => Array<string>(OTP_LENGTH).fill('');
export const otpFrom = (s: string | null | undefined) => {
  const d = (s ?? '').replace(/\D/g, '').slice(0, OTP_LENGTH).split('');
  return [...d, ...emptyOtp()].slice(0, OTP_LENGTH);
};
export const otpComplete = (digits: string[]) => digits.every((d) => /^\d$/.test(d));

/**
 * The 4-box one-digit code (accounts document §2): digits only, each box advancing to the next,
 * Backspace on an empty box going back, and a pasted (or auto-filled) code spread over the boxes.
 */
export function OtpInput({ digits, onChange, error, autoFocus }: { digits: string[]; onChange: (d: string[]) => void; error?: boolean; autoFocus?: boolean }) {
  const translate = useTranslate();
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const focus = (i: number) => {
    const el = refs.current[Math.max(0, Math.min(OTP_LENGTH - 1, i))];
    el?.focus();
    el?.select();
  };
  const spread = (from: number, text: string) => {
    const next = digits.slice();
    const got = text
      .replace(/\D/g, '')
      .slice(0, OTP_LENGTH - from)
      .split('');
    got.forEach((d, k) => {
      next[from + k] = d;
    });
    onChange(next);
    focus(from + got.length);
  };

  const onInput = (i: number, raw: string) => {
    const d = raw.replace(/\D/g, '');
    if (!d) {
      const next = digits.slice();
      next[i] = '';
      onChange(next);
      return;
    }
    // The box's text is selected on focus, so typing replaces it; several digits (auto-fill) are spread.
    spread(i, d.length > 1 && digits[i] && d.startsWith(digits[i]) ? d.slice(1) : d);
  };
  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace' && !digits[i] && i > 0) {
      e.preventDefault();
      const next = digits.slice();
      next[i - 1] = '';
      onChange(next);
      focus(i - 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      focus(i - 1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      focus(i + 1);
    }
  };
  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    const text = e.clipboardData.getData('text').replace(/\D/g, '');
    if (text) spread(text.length >= OTP_LENGTH ? 0 : i, text);
  };

  return (
    <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'center' }} role="group" aria-label={translate('accounts.otp_label')}>
      {digits.map((d, i) => (
        <Box
          key={i}
          component="input"
          ref={(el: HTMLInputElement | null) => {
            refs.current[i] = el;
          }}
          value={d}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => onInput(i, e.target.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => onKeyDown(i, e)}
          onPaste={(e: ClipboardEvent<HTMLInputElement>) => onPaste(i, e)}
          onFocus={(e: React.FocusEvent<HTMLInputElement>) => e.target.select()}
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          autoFocus={autoFocus && i === 0}
          aria-label={translate('accounts.otp_digit', { n: i + 1, total: OTP_LENGTH })}
          aria-invalid={error || undefined}
          data-testid={`otp-${i}`}
          sx={{
            width: 56,
            height: 64,
            textAlign: 'center',
            fontSize: 28,
            fontWeight: 600,
            fontFamily: 'inherit',
            borderRadius: 2,
            border: '2px solid',
            borderColor: error ? 'error.main' : 'divider',
            outline: 'none',
            bgcolor: 'background.paper',
            color: 'text.primary',
            '&:focus': { borderColor: error ? 'error.main' : 'primary.main', boxShadow: (t) => `0 0 0 3px ${t.palette.primary.main}33` },
          }}
        />
      ))}
    </Box>
  );
}
