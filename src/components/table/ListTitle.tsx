import type { ReactNode } from 'react';
import { Typography } from '@mui/material';

/** A list screen's title, the page's one heading (the shell's top bar shows no title; axe wants an h1). */
export function ListTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h5" component="h1" sx={{ mt: 1 }} data-testid="page-title">
      {children}
    </Typography>
  );
}
