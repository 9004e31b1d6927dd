import { useState, type KeyboardEvent } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Alert, Box, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { MESSAGE_MAX, textLength } from './api';
import { numberOf } from './format';

/**
 * The message box: Enter sends, Shift+Enter starts a new line (not while an input method composes),
 * a counter up to 4 000 characters; on a refusal the text stays and the server's message shows.
 */
export function Composer({ onSend, disabled }: { onSend: (text: string) => Promise<string | null>; disabled?: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const length = textLength(text);
  const tooLong = length > MESSAGE_MAX;
  const canSend = !busy && !disabled && !tooLong && text.trim().length > 0;

  const send = async () => {
    if (!canSend) return;
    setBusy(true);
    const problem = await onSend(text);
    setBusy(false);
    setError(problem);
    if (!problem) setText('');
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', p: 1.5, bgcolor: 'background.paper' }}>
      {error && (
        <Alert severity="error" onClose={() => setError(null)} sx={{ mb: 1 }} data-testid="composer-error">
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <TextField
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={translate('support.composer_placeholder')}
          multiline
          minRows={1}
          maxRows={8}
          fullWidth
          size="small"
          error={tooLong}
          slotProps={{ htmlInput: { 'aria-label': translate('support.composer'), 'data-testid': 'composer' } }}
        />
        <Tooltip title={translate('support.send')}>
          <span>
            <IconButton
              color="primary"
              onClick={() => void send()}
              disabled={!canSend}
              aria-label={translate('support.send')}
              data-testid="send"
              sx={{ mb: 0.25 }}
            >
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mt: 0.5 }}>
        <Typography variant="caption" color={tooLong ? 'error' : 'text.secondary'} sx={{ display: { xs: tooLong ? 'block' : 'none', sm: 'block' } }}>
          {tooLong ? translate('support.too_long', { max: numberOf(MESSAGE_MAX, locale) }) : translate('support.composer_hint')}
        </Typography>
        <Typography variant="caption" color={tooLong ? 'error' : 'text.secondary'} data-testid="composer-counter" sx={{ ml: 'auto', whiteSpace: 'nowrap' }}>
          {numberOf(length, locale)} / {numberOf(MESSAGE_MAX, locale)}
        </Typography>
      </Box>
    </Box>
  );
}
