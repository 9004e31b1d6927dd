import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useTranslate } from 'react-admin';
import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { PublicCard } from '../accounts/PublicCard';
import { OTP_LENGTH, OtpInput, emptyOtp } from '../accounts/OtpInput';
import { EMAIL_RE, readApiError } from '../accounts/errors';

/** Seconds before a new code may be asked for (accounts document §9). */
export const RESEND_SECONDS = 10;

/**
 * /reset-password-otp?email=…: the separate code-entry screen. "Send code" (enabled once 4 digits are
 * in) carries the code to /reset-password, where the new password is chosen: the code is checked
 * there, together with the password, so a try is spent only once. Resend asks for a new code after
 * a countdown from 10 to 0.
 */
export function ResetPasswordOtpPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const fromLink = params.get('email') ?? '';
  const [email, setEmail] = useState(fromLink);
  const [digits, setDigits] = useState(emptyOtp);
  const [seconds, setSeconds] = useState(RESEND_SECONDS);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return undefined;
    const t = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(t);
  }, [seconds]);

  const entered = digits.join('').length;
  function send(e: FormEvent) {
    e.preventDefault();
    if (entered < OTP_LENGTH) return;
    navigate(`/reset-password?email=${encodeURIComponent(email.trim())}&otp=${digits.join('')}`);
  }

  async function resend() {
    setNotice(null);
    if (!EMAIL_RE.test(email.trim())) return setNotice({ ok: false, text: translate('accounts.email_invalid') });
    setBusy(true);
    try {
      const answer = await dataProvider.forgetPassword(email.trim());
      setNotice({ ok: true, text: answer.message });
      setDigits(emptyOtp());
      setSeconds(RESEND_SECONDS);
    } catch (err) {
      setNotice({ ok: false, text: readApiError(err, translate).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <PublicCard
      title={translate('accounts.otp.title')}
      subtitle={fromLink ? translate('accounts.otp.subtitle', { email: fromLink }) : translate('accounts.otp.subtitle_no_email')}
    >
      <Stack component="form" spacing={2.5} onSubmit={send} noValidate>
        {!fromLink && (
          <TextField label={translate('accounts.otp.email')} type="email" name="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        )}
        <OtpInput digits={digits} onChange={setDigits} autoFocus={!!fromLink} />
        <Button type="submit" variant="contained" size="large" disabled={entered < OTP_LENGTH || !email.trim()} data-testid="otp-send">
          {translate('accounts.otp.send')}
        </Button>
        <Box sx={{ textAlign: 'center' }}>
          {seconds > 0 ? (
            <Typography variant="body2" color="text.secondary" data-testid="resend-countdown" aria-live="polite">
              {translate('accounts.otp.resend_in', { seconds })}
            </Typography>
          ) : (
            <Button onClick={resend} disabled={busy} data-testid="otp-resend">
              {translate('accounts.otp.resend')}
            </Button>
          )}
        </Box>
        {notice && (
          <Alert severity={notice.ok ? 'success' : 'error'} role={notice.ok ? 'status' : 'alert'} data-testid="otp-notice">
            {notice.text}
          </Alert>
        )}
        <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
          {translate('accounts.back_to_login')}
        </Link>
      </Stack>
    </PublicCard>
  );
}
