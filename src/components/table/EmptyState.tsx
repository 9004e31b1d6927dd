import type { ReactNode } from 'react';
import { useResourceContext, useTranslate } from 'react-admin';
import { Box, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';

/**
 * An empty list: the resource's own text (`resources.<name>.empty`, e.g. "no country") or the generic
 * "No Data Available , Please Add Data", with the screen's add button when given.
 */
export function EmptyState({ text, action }: { text?: string; action?: ReactNode }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const message = text ?? translate(`resources.${resource}.empty`, { _: translate('portal.empty') });
  return (
    <Box data-testid="empty" sx={{ textAlign: 'center', py: 6, color: 'text.secondary' }}>
      <InboxIcon sx={{ fontSize: 48, opacity: 0.5 }} />
      <Typography variant="body1" sx={{ mt: 1 }}>
        {translate(message, { _: message })}
      </Typography>
      {action ? <Box sx={{ mt: 2 }}>{action}</Box> : null}
    </Box>
  );
}
