import { AutocompleteInput, ReferenceInput, useGetList, useLocaleState, useTranslate, type Validator } from 'react-admin';
import type { FieldDef } from '../../../model/fields';
import { resourceByName } from '../../../model/registry';
import { sortableOf } from '../../../model/resource';
import { LookupInput, lookupText } from './LookupInput';
import { namesPerLanguage } from './DeclaredColumns';

export interface ReferencePickerProps {
  source: string;
  field: FieldDef;
  validate?: Validator[];
  fullWidth?: boolean;
  /** A message key or text (filters label their inputs themselves). */
  label?: string;
  helperText?: string;
}

/** The most rows a picker without a server search loads (the list routes' largest page). */
const PICK_ALL = 100;

/**
 * A reference's input, showing the referenced row's name (issue 34):
 * - a declared `lookup` (a visitor list, e.g. the countries): the whole list, filtered as you type;
 * - a referenced declaration whose list searches (`list.search`): react-admin's ReferenceInput with an
 *   AutocompleteInput that asks the server as you type (`q`), a page at a time — a long list never loads whole;
 * - otherwise (a short reference table without a search): its first 100 rows by name, filtered in the
 *   browser as you type. A `q` there would be dropped by the server's schema and the typing would do nothing.
 */
export function ReferencePicker({ source, field, validate, fullWidth, label, helperText }: ReferencePickerProps) {
  const ref = field.reference!;
  const [locale = 'it'] = useLocaleState();
  if (ref.lookup)
    return (
      <LookupInput
        source={source}
        lookup={ref.lookup}
        optionText={ref.optionText}
        validate={validate}
        fullWidth={fullWidth}
        label={label}
        helperText={helperText}
      />
    );
  const target = resourceByName(ref.resource);
  const sort =
    target && sortableOf(target).includes(ref.optionText) ? { field: ref.optionText, order: 'ASC' as const } : { field: 'id', order: 'ASC' as const };
  // A target naming its rows per language (issue 35): each choice in the user's language, the stored name where empty.
  const optionText = target && namesPerLanguage(target.fields) ? lookupText(ref.optionText, locale) : ref.optionText;
  if (!target || target.list?.search?.length) {
    return (
      <ReferenceInput source={source} reference={ref.resource} sort={sort} perPage={25}>
        <AutocompleteInput
          optionText={optionText}
          filterToQuery={(q: string) => (q.trim() ? { q: q.trim() } : {})}
          validate={validate}
          fullWidth={fullWidth}
          label={label}
          helperText={helperText}
        />
      </ReferenceInput>
    );
  }
  return <ShortReference {...{ source, validate, fullWidth, label, helperText }} reference={ref.resource} optionText={optionText} sort={sort} />;
}

function ShortReference({
  source,
  reference,
  optionText,
  sort,
  validate,
  fullWidth,
  label,
  helperText,
}: Omit<ReferencePickerProps, 'field'> & {
  reference: string;
  optionText: string | ((row: Record<string, unknown>) => string);
  sort: { field: string; order: 'ASC' };
}) {
  const translate = useTranslate();
  const { data, isPending } = useGetList(reference, { pagination: { page: 1, perPage: PICK_ALL }, sort });
  return (
    <AutocompleteInput
      source={source}
      choices={data ?? []}
      optionText={optionText}
      isPending={isPending}
      validate={validate}
      fullWidth={fullWidth}
      label={label}
      helperText={helperText ?? translate('declared.search_hint')}
    />
  );
}
