import { lazy, Suspense, type ReactElement } from 'react';
import { BooleanInput, FileField, FileInput, ImageField, ImageInput, PasswordInput, SelectInput, TextInput, required, useTranslate } from 'react-admin';
import { Box, InputAdornment } from '@mui/material';
import { choiceOf, inputFields, type FieldDef, type FieldsDecl } from '../../../model/fields';
import { ReferencePicker } from './ReferencePicker';
import { LookupInput } from './LookupInput';
import { validatorsOf } from './validators';
import { DecimalInput } from '../forms/DecimalInput';

// The pickers (MUI X, ~50 kB compressed) load only with a form that has a date or a month.
const PortalDateInput = lazy(() => import('../dates/inputs').then((m) => ({ default: m.PortalDateInput })));
const PortalMonthInput = lazy(() => import('../dates/inputs').then((m) => ({ default: m.PortalMonthInput })));

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);

/** The input of one declared field; the label is react-admin's `resources.<name>.fields.<source>`. */
export function DeclaredInput({ source, field: f }: { source: string; field: FieldDef }): ReactElement {
  const translate = useTranslate();
  const common = { source, validate: validatorsOf(f), fullWidth: true, 'data-field': source } as const;
  switch (f.type) {
    case 'text':
      return (
        <TextInput
          {...common}
          multiline={f.multiline}
          minRows={f.multiline ? 2 : undefined}
          parse={f.upperCase ? upper : undefined}
          slotProps={{ htmlInput: { maxLength: f.maxLength } }}
        />
      );
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'url':
      return <TextInput {...common} type="url" />;
    case 'password':
      return <PasswordInput {...common} />;
    case 'integer':
      // Numbers are typed with the user's decimal mark, in a text box (issue 35; forms/DecimalInput.tsx).
      return <DecimalInput {...common} />;
    case 'decimal':
      return <DecimalInput {...common} />;
    case 'month':
      // A month and year picker: 11/2026 on screen, `2026-11` in the form and on the wire.
      return (
        <Suspense fallback={null}>
          <PortalMonthInput {...common} />
        </Suspense>
      );
    case 'money':
      return <DecimalInput {...common} slotProps={{ input: { endAdornment: <InputAdornment position="end">€</InputAdornment> } }} />;
    case 'boolean':
      return <BooleanInput {...common} />;
    case 'flag':
      // Stored as '0' | '1' text; a new record without a value reads as off.
      return <BooleanInput {...common} format={(v: unknown) => v === '1' || v === 1 || v === true} parse={(v: boolean) => (v ? '1' : '0')} />;
    case 'date':
      return (
        <Suspense fallback={null}>
          <PortalDateInput {...common} />
        </Suspense>
      );
    case 'select':
      return <SelectInput {...common} choices={(f.options ?? []).map(choiceOf)} translateChoice />;
    case 'reference':
      return <ReferencePicker source={source} field={f} validate={common.validate} fullWidth />;
    case 'image':
      return (
        <ImageInput
          {...common}
          accept={{ 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/webp': ['.webp'] }}
          maxSize={f.maxSize}
          helperText={f.maxSize ? translate('portal.max_size', { size: `${Math.round(f.maxSize / 1024 / 1024)} MB` }) : undefined}
        >
          <ImageField source="src" title="title" />
        </ImageInput>
      );
    case 'file':
      return (
        <FileInput {...common} maxSize={f.maxSize} accept={f.accept ? { [f.accept]: [] } : undefined}>
          <FileField source="src" title="title" />
        </FileInput>
      );
  }
}

/** The company that owns a new row, as an admin names it on a company-tenancy resource (the others' rows are their company's). */
const COMPANY_REQUIRED = [required()];

/**
 * The inputs of a declaration for a create or edit form, in declaration order: two columns from the
 * sm breakpoint, long texts across. `only` picks and orders a subset. `company` (an admin creating a row of a
 * company-tenancy resource, issue 34): the owning company first, required (the server refuses a store
 * without it); never on edit, as a row does not move between companies.
 */
export function DeclaredInputs({ fields, mode, only, company }: { fields: FieldsDecl; mode: 'create' | 'edit'; only?: string[]; company?: boolean }) {
  const translate = useTranslate();
  const entries = inputFields(fields, mode).filter(([name]) => !only || only.includes(name));
  if (only) entries.sort(([a], [b]) => only.indexOf(a) - only.indexOf(b));
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, width: '100%' }}>
      {company && mode === 'create' ? (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <LookupInput
            source="company_id"
            lookup="companies_list"
            optionText="legal_name"
            label={translate('declared.company')}
            validate={COMPANY_REQUIRED}
            fullWidth
          />
        </Box>
      ) : null}
      {entries.map(([name, f]) => (
        <Box key={name} sx={{ gridColumn: f.multiline || f.type === 'image' || f.type === 'file' ? '1 / -1' : undefined }}>
          <DeclaredInput source={name} field={f} />
        </Box>
      ))}
    </Box>
  );
}
