import { useState, type FormEvent } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { MfaEnrolment as Enrolment, MfaProof } from '../../dataProvider/mfa';
import { useFormat } from '../../components/format';
import { readApiError } from '../accounts/errors';
import { MfaEnrolment } from '../accounts/MfaEnrolment';
import { RecoveryCodes } from '../accounts/RecoveryCodes';
import { useTimedMessage } from '../accounts/useTimedMessage';

type Step = { kind: 'idle' } | { kind: 'enrol'; enrolment: Enrolment } | { kind: 'codes'; codes: string[] };

/**
 * "Verifica in due passaggi" (docs/two-factor.md): turn on (QR code, the secret as text, a 6-digit code;
 * then the ten recovery codes, shown once), turn off and new recovery codes (a current code or the password).
 */
export function MfaCard() {
  const translate = useTranslate();
  const { date } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const { data: state } = useQuery({ queryKey: ['mfa'], queryFn: () => dataProvider.mfaState() });
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [proofFor, setProofFor] = useState<'disable' | 'regenerate' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, showNotice] = useTimedMessage(5000);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mfa'] });

  async function start() {
    setFailure(null);
    try {
      const answer = await dataProvider.mfaSetup();
      setStep({ kind: 'enrol', enrolment: answer.data });
    } catch (err) {
      setFailure(readApiError(err, translate).message);
    }
  }
  async function confirm(code: string): Promise<string | null> {
    try {
      const answer = await dataProvider.mfaEnable(code);
      setStep({ kind: 'codes', codes: answer.data.recovery_codes });
      showNotice(answer.message);
      refresh();
      return null;
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      return fields.code ?? message;
    }
  }
  async function proved(answer: { message: string; data?: unknown }) {
    setProofFor(null);
    showNotice(answer.message);
    const codes = (answer.data as { recovery_codes?: string[] } | undefined)?.recovery_codes;
    if (codes) setStep({ kind: 'codes', codes });
    refresh();
  }

  return (
    <Card component="section" aria-labelledby="mfa-title" data-testid="mfa-card">
      <CardContent sx={{ p: 3 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
          <Typography id="mfa-title" variant="h6" component="h2">
            {translate('mfa.title')}
          </Typography>
          {state && (
            <Chip
              size="small"
              color={state.enabled ? 'success' : 'default'}
              label={state.enabled ? translate('mfa.status_on', { date: date(state.enabled_at) }) : translate('mfa.status_off')}
              data-testid="mfa-status"
            />
          )}
        </Box>
        <Stack spacing={2}>
          {step.kind === 'codes' ? (
            <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />
          ) : step.kind === 'enrol' ? (
            <MfaEnrolment enrolment={step.enrolment} confirm={confirm} onCancel={() => setStep({ kind: 'idle' })} />
          ) : state?.enabled ? (
            <>
              <Typography variant="body2">{translate('mfa.codes_left', { count: state.recovery_codes_left })}</Typography>
              {state.recovery_codes_left <= 2 && (
                <Alert severity="warning" data-testid="mfa-codes-low">
                  {translate('mfa.codes_low')}
                </Alert>
              )}
              {state.required && <Typography variant="body2">{translate('mfa.required')}</Typography>}
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                <Button variant="outlined" onClick={() => setProofFor('regenerate')} data-testid="mfa-regenerate">
                  {translate('mfa.regenerate')}
                </Button>
                {!state.required && (
                  <Button variant="outlined" color="error" onClick={() => setProofFor('disable')} data-testid="mfa-disable">
                    {translate('mfa.disable')}
                  </Button>
                )}
              </Box>
            </>
          ) : state ? (
            <>
              <Typography variant="body2">{translate('mfa.intro')}</Typography>
              {state.required && <Alert severity="info">{translate('mfa.required')}</Alert>}
              <Box>
                <Button variant="contained" onClick={start} data-testid="mfa-enable">
                  {translate('mfa.enable')}
                </Button>
              </Box>
            </>
          ) : null}
          {notice && step.kind === 'idle' && (
            <Alert severity="success" role="status" data-testid="mfa-notice">
              {notice}
            </Alert>
          )}
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
        </Stack>
      </CardContent>
      {proofFor && <ProofDialog action={proofFor} onClose={() => setProofFor(null)} onDone={proved} />}
    </Card>
  );
}

/** Asks a current code (of the app, or a recovery code) or the password before turning off or regenerating. */
function ProofDialog({
  action,
  onClose,
  onDone,
}: {
  action: 'disable' | 'regenerate';
  onClose: () => void;
  onDone: (answer: { message: string; data?: unknown }) => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [usePassword, setUsePassword] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!value) return setError(translate('mfa.code_required'));
    const proof: MfaProof = usePassword ? { password: value } : { code: value.trim() };
    setBusy(true);
    try {
      onDone(action === 'disable' ? await dataProvider.mfaDisable(proof) : await dataProvider.mfaRecoveryCodes(proof));
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      setError(fields.code ?? fields.password ?? message);
      setValue('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby="mfa-proof-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="mfa-proof-title">{translate(action === 'disable' ? 'mfa.disable_title' : 'mfa.regenerate_title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {action === 'regenerate' && <Typography variant="body2">{translate('mfa.regenerate_note')}</Typography>}
            <Typography variant="body2">{translate('mfa.proof_intro')}</Typography>
            <TextField
              autoFocus
              name={usePassword ? 'password' : 'code'}
              type={usePassword ? 'password' : 'text'}
              label={translate(usePassword ? 'mfa.proof_password' : 'mfa.proof_code')}
              autoComplete={usePassword ? 'current-password' : 'one-time-code'}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={!!error}
              helperText={error ?? ' '}
              slotProps={{ htmlInput: { 'data-testid': 'mfa-proof' } }}
            />
            <Box>
              <Button
                size="small"
                onClick={() => {
                  setUsePassword((v) => !v);
                  setValue('');
                  setError(null);
                }}
              >
                {translate(usePassword ? 'mfa.use_code' : 'mfa.use_password')}
              </Button>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('mfa.cancel')}</Button>
          <Button type="submit" variant="contained" color={action === 'disable' ? 'error' : 'primary'} disabled={busy} data-testid="mfa-proof-submit">
            {translate(action === 'disable' ? 'mfa.disable' : 'mfa.regenerate')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
