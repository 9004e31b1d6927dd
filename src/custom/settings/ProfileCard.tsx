import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useDataProvider, useGetIdentity, useTranslate } from 'react-admin';
import { Alert, Autocomplete, Avatar, Box, Button, Card, CardContent, FormHelperText, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { fetchProfile } from '../../authProvider';
import { alertText, readApiError } from '../accounts/errors';
import { countryLabel, useCountries } from '../accounts/lookups';
import { useTimedMessage } from '../accounts/useTimedMessage';

/** Profile picture limit (accounts document §5) and the kinds the server accepts (server.md §8). */
export const IMAGE_LIMIT = 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
/** 'Profile Updated Successfully' stays 3 seconds (accounts document §2, §9). */
const PROFILE_NOTICE_MS = 3000;

/** Profile update: first and last name, country, city and picture; the top bar's user menu follows at once. */
export function ProfileCard() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { identity, refetch } = useGetIdentity();
  const countries = useCountries();
  const [form, setForm] = useState<{ first_name: string; last_name: string; city: string; country_id: number | null } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, showNotice] = useTimedMessage(PROFILE_NOTICE_MS);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (identity && !form) {
      setForm({
        first_name: identity.first_name ?? '',
        last_name: identity.last_name ?? '',
        city: identity.city ?? '',
        country_id: identity.country_id ?? null,
      });
    }
  }, [identity, form]);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  function pick(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0] ?? null;
    e.target.value = '';
    setImageError(null);
    if (!f) return;
    // Refused here, before any upload; the server checks the bytes again.
    if (f.size > IMAGE_LIMIT) return setImageError(translate('accounts.settings.image_too_large'));
    if (!IMAGE_TYPES.includes(f.type)) return setImageError(translate('accounts.settings.image_kind'));
    setFile(f);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    setFailure(null);
    const found: Record<string, string> = {};
    if (!form.first_name.trim()) found.first_name = translate('accounts.required');
    if (!form.last_name.trim()) found.last_name = translate('accounts.required');
    setErrors(found);
    if (Object.keys(found).length) return;
    let body: FormData | Record<string, unknown> = { first_name: form.first_name, last_name: form.last_name, city: form.city, country_id: form.country_id };
    if (file) {
      const fd = new FormData();
      fd.append('first_name', form.first_name);
      fd.append('last_name', form.last_name);
      fd.append('city', form.city);
      if (form.country_id) fd.append('country_id', String(form.country_id));
      fd.append('image', file, file.name);
      body = fd;
    }
    setBusy(true);
    try {
      const answer = await dataProvider.updateProfile(body);
      setFile(null);
      showNotice(answer.message);
      await fetchProfile(true);
      await refetch();
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      setErrors(fields);
      if (fields.image) setImageError(fields.image);
      setFailure(alertText(message, fields, ['first_name', 'last_name', 'country_id', 'city', 'image']));
    } finally {
      setBusy(false);
    }
  }

  const country = countries.data.find((c) => c.id === form?.country_id) ?? null;
  const set = (k: 'first_name' | 'last_name' | 'city') => (e: ChangeEvent<HTMLInputElement>) => setForm((f) => f && { ...f, [k]: e.target.value });
  return (
    <Card component="section" aria-labelledby="profile-title">
      <CardContent component="form" onSubmit={submit} noValidate sx={{ p: 3 }}>
        <Typography id="profile-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate('accounts.settings.profile')}
        </Typography>
        <Stack spacing={2}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Avatar
              src={preview ?? identity?.image ?? undefined}
              alt={translate('accounts.settings.image')}
              // the initials on the theme's primary colour: MUI's default grey gives 1.73:1 (axe colour contrast)
              sx={{ width: 72, height: 72, bgcolor: 'primary.main', color: 'primary.contrastText' }}
              data-testid="profile-avatar"
            >
              {(form?.first_name?.[0] ?? '') + (form?.last_name?.[0] ?? '')}
            </Avatar>
            <Box>
              <Button variant="outlined" onClick={() => input.current?.click()}>
                {translate('accounts.settings.choose_image')}
              </Button>
              <input
                ref={input}
                type="file"
                hidden
                accept={IMAGE_TYPES.join(',')}
                onChange={pick}
                data-testid="profile-image-input"
                aria-label={translate('accounts.settings.image')}
              />
              <FormHelperText error={!!imageError} data-testid="image-hint">
                {imageError ?? translate('accounts.settings.image_hint')}
              </FormHelperText>
              {file && <FormHelperText>{file.name}</FormHelperText>}
            </Box>
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              name="first_name"
              label={translate('accounts.settings.first_name')}
              required
              value={form?.first_name ?? ''}
              onChange={set('first_name')}
              error={!!errors.first_name}
              helperText={errors.first_name}
              disabled={!form}
            />
            <TextField
              name="last_name"
              label={translate('accounts.settings.last_name')}
              required
              value={form?.last_name ?? ''}
              onChange={set('last_name')}
              error={!!errors.last_name}
              helperText={errors.last_name}
              disabled={!form}
            />
            <Autocomplete
              options={countries.data}
              value={country}
              onChange={(_e, c) => setForm((f) => f && { ...f, country_id: c?.id ?? null })}
              getOptionLabel={countryLabel}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={countries.loading}
              disabled={!form}
              renderInput={(p) => (
                <TextField {...p} name="country_id" label={translate('accounts.settings.country')} error={!!errors.country_id} helperText={errors.country_id} />
              )}
            />
            <TextField
              name="city"
              label={translate('accounts.settings.city')}
              value={form?.city ?? ''}
              onChange={set('city')}
              error={!!errors.city}
              helperText={errors.city}
              disabled={!form}
            />
          </Box>
          {notice && (
            <Alert severity="success" role="status" data-testid="profile-notice">
              {notice}
            </Alert>
          )}
          {failure && (
            <Alert severity="error" role="alert" data-testid="profile-error">
              {failure}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" disabled={busy || !form} data-testid="profile-save">
              {translate('accounts.settings.save_profile')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
