import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import ContactsIcon from '@mui/icons-material/ContactsOutlined';
import type { BookPlace } from '../../dataProvider/addressBook';
import { usePortalData } from './api';
import { kindsFor, type End } from './addressBook';

/** How long the typed text rests before it is searched (a phone's keyboard types in bursts). */
const DEBOUNCE_MS = 250;

/**
 * "Scegli dalla rubrica" (issue 34): an autocomplete over the caller's address book — the places of this end's
 * kind and those for both, searched by the server as the user types (`?q=`, `?kind=`), by name. Picking one
 * hands it to `onPick` and empties the box again: it is an action that fills the section, not a field of the
 * booking (the filled inputs show what was taken, and stay editable). `unusable` greys out the places a quote
 * rules out, with the reason under their name. Full width, one line per place plus its address: fits 390 px.
 */
export function AddressBookPicker({
  end,
  companyId,
  picked,
  unusable,
  onPick,
}: {
  end: End;
  /** An admin's form names the company whose places it offers (the admin list takes `company_id`). */
  companyId?: number;
  /** The name of the place the section holds from the address book, told under the box. */
  picked?: string | null;
  unusable?: (p: BookPlace) => string | null;
  onPick: (p: BookPlace) => void;
}) {
  const translate = useTranslate();
  const dataProvider = usePortalData();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const places = useQuery({
    queryKey: ['address-book', 'picker', end, companyId ?? null, q],
    queryFn: ({ signal }) => dataProvider.addressBookPlaces({ kinds: kindsFor(end), q, companyId, signal }),
    enabled: open,
    staleTime: 30_000,
  });
  const options = places.data ?? [];
  const line = (p: BookPlace) =>
    [p.address, [p.postal_code, p.city, p.province ? `(${p.province})` : ''].filter(Boolean).join(' '), p.country_name ?? ''].filter(Boolean).join(', ');
  return (
    <Autocomplete<BookPlace, false, false, false>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      // The server searched already: show what it answered, not a second filter of the browser's.
      filterOptions={(x) => x}
      value={null}
      inputValue={text}
      onInputChange={(_, v, reason) => setText(reason === 'reset' ? '' : v)}
      onChange={(_, p) => {
        if (p) onPick(p);
        setText('');
      }}
      blurOnSelect
      clearOnBlur
      getOptionLabel={(p) => p.name}
      getOptionDisabled={(p) => !!unusable?.(p)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={places.isFetching}
      loadingText={translate('address_book_picker.searching')}
      noOptionsText={translate(places.isError ? 'address_book_picker.failed' : q ? 'address_book_picker.none_found' : 'address_book_picker.empty')}
      renderOption={({ key, ...props }, p) => {
        const why = unusable?.(p);
        return (
          <Box component="li" key={key} {...props} data-testid={`book-option-${end}`} sx={{ display: 'block !important' }}>
            <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {p.name}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
              {line(p)}
            </Typography>
            {why && (
              <Typography variant="caption" color="warning.main" component="div">
                {why}
              </Typography>
            )}
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={translate('address_book_picker.pick')}
          helperText={picked ? translate('address_book_picker.picked', { name: picked }) : translate(`address_book_picker.pick_hint_${end}`)}
          // The deprecated InputProps/inputProps the Autocomplete hands over, as v7's slots, with the icon and the test id.
          slotProps={{
            input: {
              ...params.InputProps,
              startAdornment: (
                <>
                  <ContactsIcon fontSize="small" color="action" sx={{ ml: 0.5 }} />
                  {params.InputProps.startAdornment}
                </>
              ),
            },
            htmlInput: { ...params.inputProps, 'data-testid': `book-pick-${end}` },
          }}
        />
      )}
      sx={{ width: '100%', maxWidth: { sm: 520 } }}
      data-testid={`book-picker-${end}`}
    />
  );
}
