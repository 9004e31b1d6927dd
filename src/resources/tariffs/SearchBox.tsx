import { useEffect, useRef, useState } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { groupDigits } from './format';
import { InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

/** The server's bound on `q` (server/imports/search.ts). */
const MAX = 100;

/**
 * The search of a tariff table or a sheet's rows (issue 35): what is typed goes to the list's `q` after a
 * short pause (one request per pause, not per key); codes, places, zones and the class words (SILVER, GOLD).
 */
export function SearchBox({
  value,
  onChange,
  found,
  testId = 'tariff-search',
}: {
  value: string;
  onChange: (q: string) => void;
  /** Rows the search found (shown while searching). */
  found?: number;
  testId?: string;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  // A value changed from outside (another carrier chosen) is shown as is; the one just sent stays as typed.
  useEffect(() => setText((t) => (t.trim() === value ? t : value)), [value]);
  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const timer = setTimeout(() => latest.current(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <TextField
      type="search"
      size="small"
      margin="none"
      value={text}
      onChange={(e) => setText(e.target.value)}
      label={translate('tariffs.search')}
      placeholder={translate('tariffs.search_placeholder')}
      sx={{ width: { xs: '100%', sm: 320 } }}
      helperText={
        value && found !== undefined
          ? found
            ? translate('tariffs.found', { smart_count: found, count: groupDigits(found, locale) })
            : translate('tariffs.found_none')
          : undefined
      }
      slotProps={{
        htmlInput: { maxLength: MAX, 'data-testid': testId },
        inputLabel: { shrink: true },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
