import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { saveBlob } from '../../components/download';

/**
 * The ten recovery codes, shown once (after enrolment or regeneration): copy, download, and a button that
 * says they were kept (`onDone`). Used by the settings card and the login's enrolment (public shell: ra-core and MUI parts only).
 */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  function download() {
    saveBlob(new Blob([`${translate('mfa.codes_title')}\n\n${text}\n`], { type: 'text/plain' }), translate('mfa.codes_file'));
  }

  return (
    <Stack spacing={2} data-testid="mfa-recovery-codes">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
        {translate('mfa.codes_title')}
      </Typography>
      <Alert severity="warning">{translate('mfa.codes_intro')}</Alert>
      <Box
        component="ol"
        sx={{ m: 0, p: 2, pl: 5, bgcolor: 'grey.100', borderRadius: 1, fontFamily: 'monospace', fontSize: '1rem', columns: { xs: 1, sm: 2 }, columnGap: 4 }}
      >
        {codes.map((c) => (
          <li key={c} data-testid="mfa-recovery-code">
            {c}
          </li>
        ))}
      </Box>
      {copied && (
        <Typography role="status" variant="body2" color="success.main">
          {translate('mfa.copied')}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={copy}>
          {translate('mfa.copy')}
        </Button>
        <Button variant="outlined" onClick={download}>
          {translate('mfa.download')}
        </Button>
        <Button variant="contained" onClick={onDone} data-testid="mfa-codes-done">
          {doneLabel ?? translate('mfa.codes_done')}
        </Button>
      </Box>
    </Stack>
  );
}
