import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { resourceByName } from '../../../model/registry';
import { browserMessages, type ResourceDecl } from '../../../model/resource';
import { TARIFF_TABLES } from '../../../model/tariffs';
import { lazyScreen } from '../../components/lazyScreen';
import type { AreaMessages } from '../../i18n';
import type { PortalResource } from '../types';
import { tariffMessages } from './messages';
import { checkMessages } from './checkMessages';

// The screens load when first opened; the declarations (names, paths, permissions, labels) stay eager.
const TariffList = lazyScreen(() => import('./TariffList'), 'TariffList');
const RateSheetsPage = lazyScreen(() => import('./RateSheetsPage'), 'RateSheetsPage');
const RateSheetRowsPage = lazyScreen(() => import('./RateSheetRowsPage'), 'RateSheetRowsPage');
const EnduserRateSheetsPage = lazyScreen(() => import('./EnduserRateSheetsPage'), 'EnduserRateSheetsPage');

const declared = (name: string): ResourceDecl => {
  const decl = resourceByName(name);
  if (!decl) throw new Error(`No declaration ${name}`);
  return decl;
};

/**
 * The tariff resources (model/resources/tariffs.ts): the six tables, the rate sheets (rows at
 * /rate-sheets/:id/:companyId) and the end user's rate sheets. The registry gives the name, paths per
 * role, labels and permissions; this folder the screens a declaration cannot say (the upload, the
 * company selector, the whole-set delete, the sheets' categories). Listed by name in ../index.ts.
 */
export const tariffResources: Record<string, PortalResource> = {
  ...Object.fromEntries(
    TARIFF_TABLES.map((spec, i) => {
      const decl = declared(spec.route);
      const messages: AreaMessages[] = [
        browserMessages(decl) as AreaMessages,
        ...(i === 0 ? [tariffMessages as AreaMessages, checkMessages as AreaMessages] : []),
      ];
      return [
        decl.name,
        {
          name: decl.name,
          list: () => createElement(TariffList, { spec }),
          api: { paths: decl.api, listKey: spec.listKey },
          messages: mergeMessages(messages),
        } satisfies PortalResource,
      ];
    }),
  ),
  'rate-sheets': {
    name: 'rate-sheets',
    list: RateSheetsPage,
    children: createElement(Route, { path: ':id/:companyId', element: createElement(RateSheetRowsPage) }),
    api: { paths: declared('rate-sheets').api },
    messages: browserMessages(declared('rate-sheets')) as AreaMessages,
  },
  'enduser-rate-sheets': {
    name: 'enduser-rate-sheets',
    list: EnduserRateSheetsPage,
    api: { paths: declared('enduser-rate-sheets').api },
    messages: browserMessages(declared('enduser-rate-sheets')) as AreaMessages,
  },
};

/** Deep merge of message trees (it/en/fr). */
function mergeMessages(list: AreaMessages[]): AreaMessages {
  const merge = (a: any, b: any): any => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b ?? {})) out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' ? merge(out[k], v) : v;
    return out;
  };
  return list.reduce((acc, m) => merge(acc, m), {} as AreaMessages);
}
