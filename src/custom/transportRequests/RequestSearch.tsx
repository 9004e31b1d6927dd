import { useEffect, useRef, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

/** The server's bound on the search (server/routes/requests/list.ts REQUEST_SEARCH_MAX). */
export const REQUEST_SEARCH_MAX = 100;

/**
 * The request list's search box (issue 35 item 3): number, places, postal codes, company names and references,
 * sent as `q` a moment after typing stops (the list's filter, so the page, the export and Back keep it).
 */
export function RequestSearchField({ sx }: { sx?: object }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const current = typeof filterValues.q === 'string' ? filterValues.q : '';
  const [text, setText] = useState(current);
  const latest = useRef({ filterValues, setFilters });
  latest.current = { filterValues, setFilters };

  // The filter cleared elsewhere (Clear): the box follows.
  useEffect(() => setText(current), [current]);

  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === current.trim()) return;
    const id = setTimeout(() => {
      const { filterValues: f, setFilters: set } = latest.current;
      const next = { ...f, q: trimmed };
      if (!trimmed) delete (next as Record<string, unknown>).q;
      set(next, undefined, false);
    }, 350);
    return () => clearTimeout(id);
  }, [text, current]);

  return (
    <TextField
      size="small"
      variant="outlined"
      type="search"
      label={translate('open_request.search')}
      placeholder={translate('open_request.search_hint')}
      value={text}
      onChange={(e) => setText(e.target.value)}
      // While a search is on: where it looks (the server's SEARCH_WINDOW, server/repositories/transportRequests.ts).
      helperText={current ? translate('open_request.search_window') : undefined}
      sx={sx}
      slotProps={{
        htmlInput: { maxLength: REQUEST_SEARCH_MAX, 'data-testid': 'request-search', 'aria-label': translate('open_request.search_hint') },
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
