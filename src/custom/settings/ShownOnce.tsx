import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Box, Button, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';

/**
 * A secret the server answers once (an API key, a webhook's signing secret), shown in its dialog until the
 * user says it was copied. `messages` is the card's key prefix: `<messages>.shown_title`, `.shown_warning`,
 * `.copy`, `.copied`, `.done`; `testId` names the value (`<testId>`), its copy (`-copy`) and done (`-done`) buttons.
 */
export function ShownOnce({
  value,
  onDone,
  messages,
  titleId,
  testId,
}: {
  value: string;
  onDone: () => void;
  messages: string;
  titleId: string;
  testId: string;
}) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <>
      <DialogTitle id={titleId}>{translate(`${messages}.shown_title`)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{translate(`${messages}.shown_warning`)}</Alert>
          <Box
            component="code"
            data-testid={testId}
            sx={{ p: 2, bgcolor: 'grey.100', borderRadius: 1, fontFamily: 'monospace', wordBreak: 'break-all', userSelect: 'all' }}
          >
            {value}
          </Box>
          {copied && (
            <Typography role="status" variant="body2" color="success.main">
              {translate(`${messages}.copied`)}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" onClick={copy} data-testid={`${testId}-copy`}>
          {translate(`${messages}.copy`)}
        </Button>
        <Button variant="contained" onClick={onDone} data-testid={`${testId}-done`}>
          {translate(`${messages}.done`)}
        </Button>
      </DialogActions>
    </>
  );
}
