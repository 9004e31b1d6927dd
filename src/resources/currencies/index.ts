import { declaredResource } from '../../components/declared/declaredResource';
import { currencyFields } from '../../../model/resources/currencies';

const fields = { name: 'Nome', code_alpha: 'Codice', symbol: 'Simbolo', active: 'Attiva' };

/** /currencies (accounts document §2, admin only): name, code_alpha, symbol, active. */
export default declaredResource({
  name: 'currencies',
  fields: currencyFields,
  api: { paths: { admin: '/admin/currencies' } },
  messages: {
    it: { resources: { currencies: { name: 'Valuta |||| Valute', fields, create_title: 'Nuova valuta', edit_title: 'Modifica valuta', empty: 'Nessuna valuta' } } },
    en: { resources: { currencies: { name: 'Currency |||| Currencies', fields: { name: 'Name', code_alpha: 'Code', symbol: 'Symbol', active: 'Active' }, create_title: 'New currency', edit_title: 'Edit currency', empty: 'No currency' } } },
    fr: { resources: { currencies: { name: 'Devise |||| Devises', fields: { name: 'Nom', code_alpha: 'Code', symbol: 'Symbole', active: 'Active' }, create_title: 'Nouvelle devise', edit_title: 'Modifier la devise', empty: 'Aucune devise' } } },
  },
});
