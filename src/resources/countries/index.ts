import { declaredResource } from '../../components/declared/declaredResource';
import { countryFields } from '../../../model/resources/countries';

/**
 * /countries (accounts document §2, admin only): the admin list's name, code_alpha, symbol, active,
 * and in the same modal the company-area fields de, en, es, fr, it, iso_alpha_2, iso_alpha_3, un_code
 * (hidden columns the user can show).
 */
export default declaredResource({
  name: 'countries',
  fields: countryFields,
  api: { paths: { admin: '/admin/countries' } },
  messages: {
    it: {
      resources: {
        countries: {
          name: 'Paese |||| Paesi',
          fields: {
            name: 'Nome', code_alpha: 'Codice', symbol: 'Simbolo', active: 'Attivo', de: 'Nome tedesco (de)', en: 'Nome inglese (en)',
            es: 'Nome spagnolo (es)', fr: 'Nome francese (fr)', it: 'Nome italiano (it)', iso_alpha_2: 'ISO alfa-2', iso_alpha_3: 'ISO alfa-3', un_code: 'Codice ONU',
          },
          create_title: 'Nuovo paese', edit_title: 'Modifica paese', empty: 'Nessun paese',
        },
      },
    },
    en: {
      resources: {
        countries: {
          name: 'Country |||| Countries',
          fields: {
            name: 'Name', code_alpha: 'Code', symbol: 'Symbol', active: 'Active', de: 'German name (de)', en: 'English name (en)',
            es: 'Spanish name (es)', fr: 'French name (fr)', it: 'Italian name (it)', iso_alpha_2: 'ISO alpha-2', iso_alpha_3: 'ISO alpha-3', un_code: 'UN code',
          },
          create_title: 'New country', edit_title: 'Edit country', empty: 'no country',
        },
      },
    },
    fr: {
      resources: {
        countries: {
          name: 'Pays |||| Pays',
          fields: {
            name: 'Nom', code_alpha: 'Code', symbol: 'Symbole', active: 'Actif', de: 'Nom allemand (de)', en: 'Nom anglais (en)',
            es: 'Nom espagnol (es)', fr: 'Nom français (fr)', it: 'Nom italien (it)', iso_alpha_2: 'ISO alpha-2', iso_alpha_3: 'ISO alpha-3', un_code: 'Code ONU',
          },
          create_title: 'Nouveau pays', edit_title: 'Modifier le pays', empty: 'Aucun pays',
        },
      },
    },
  },
});
