import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Card, CardContent, Typography } from '@mui/material';

export interface DetailItem {
  label: string;
  value: ReactNode;
  testid?: string;
}

const isEmpty = (v: ReactNode) => v === null || v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v));

/** A read-only section: a title and label/value pairs (an empty value reads 'N/A', accounts document §2), and what follows them. */
export function DetailSection({
  title,
  items,
  none,
  testid,
  footer,
}: {
  title: string;
  items: DetailItem[];
  none: string;
  testid?: string;
  footer?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ mb: 2 }} data-testid={testid}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate(title)}
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 4, rowGap: 1.5, m: 0 }}>
          {items.map((i) => (
            <Box key={i.label} data-testid={i.testid}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {translate(i.label)}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-empty={isEmpty(i.value) ? '1' : '0'}>
                {isEmpty(i.value) ? translate(none) : i.value}
              </Typography>
            </Box>
          ))}
        </Box>
        {footer}
      </CardContent>
    </Card>
  );
}
