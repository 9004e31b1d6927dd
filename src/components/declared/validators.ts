import { email, maxLength, maxValue, minLength, minValue, regex, required, type Validator } from 'react-admin';
import { MONTH_PATTERN, PASSWORD_RULE, decimalPattern, type FieldDef, type FieldsDecl } from '../../../model/fields';

/** react-admin validators of one declared field: the same rules the server's schemas check. */
export function validatorsOf(f: FieldDef): Validator[] {
  const v: Validator[] = [];
  if (f.required) v.push(required());
  switch (f.type) {
    case 'text':
    case 'url':
      if (f.minLength) v.push(minLength(f.minLength));
      v.push(maxLength(f.maxLength ?? 255));
      if (f.pattern) v.push(regex(new RegExp(f.pattern), 'portal.validation.pattern'));
      break;
    case 'email':
      v.push(email(), maxLength(f.maxLength ?? 254));
      break;
    case 'password':
      v.push(minLength(PASSWORD_RULE.minLength), maxLength(PASSWORD_RULE.maxLength), regex(new RegExp(PASSWORD_RULE.pattern), 'portal.validation.password'));
      break;
    case 'month':
      v.push(regex(new RegExp(MONTH_PATTERN), 'portal.validation.month'));
      break;
    case 'integer':
    case 'decimal':
    case 'money':
      if (f.exclusive) {
        v.push((value: unknown) => {
          if (value === null || value === undefined || value === '') return undefined;
          const n = Number(value);
          if (f.min !== undefined && n <= f.min) return { message: 'portal.validation.greater_than', args: { limit: f.min } };
          if (f.max !== undefined && n >= f.max) return { message: 'portal.validation.less_than', args: { limit: f.max } };
          return undefined;
        });
      } else {
        if (f.min !== undefined) v.push(minValue(f.min));
        if (f.max !== undefined) v.push(maxValue(f.max));
      }
      if (f.type === 'decimal' && f.scale !== undefined) {
        const re = new RegExp(decimalPattern(f.scale));
        v.push((value: unknown) =>
          value === null || value === undefined || value === '' || re.test(String(value))
            ? undefined
            : { message: 'portal.validation.decimals', args: { scale: f.scale } },
        );
      }
      if (f.type === 'integer')
        v.push((value: unknown) =>
          value === null || value === undefined || value === '' || Number.isInteger(Number(value)) ? undefined : 'portal.validation.integer',
        );
      break;
    default:
      break;
  }
  return v;
}

/** Every input's validators of a declaration, by field name. */
export const validatorsFor = (decl: FieldsDecl) => Object.fromEntries(Object.entries(decl).map(([k, f]) => [k, validatorsOf(f)]));
