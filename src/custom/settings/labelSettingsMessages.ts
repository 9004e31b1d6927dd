import type { AreaMessages } from '../../i18n';

/** Texts of the settings' pallet label section (issue 36 item 3, docs/pallet-labels.md). */
export const labelSettingsMessages: AreaMessages = {
  it: {
    accounts: { settings: { sections: { labels: 'Etichette bancali' } } },
    label_settings: {
      title: 'Etichette dei bancali (GS1-128)',
      intro:
        'Ogni bancale riceve alla prima stampa delle etichette un codice SSCC di 18 cifre: cifra di estensione 0, il tuo prefisso aziendale GS1, un numero progressivo e la cifra di controllo. Il prefisso te lo assegna GS1 Italy (7-10 cifre).',
      prefix: 'Prefisso aziendale GS1',
      prefix_hint: 'Da 7 a 10 cifre, come assegnato da GS1.',
      prefix_format: 'Il prefisso è di 7-10 cifre, senza spazi né altri caratteri.',
      save: 'Salva',
      used: 'Codici SSCC assegnati: %{used} su %{max} disponibili con questo prefisso.',
      none: 'Nessun prefisso impostato: le etichette dei bancali non si possono ancora stampare.',
      read_only: 'Solo l’account principale del vettore può cambiare il prefisso.',
    },
  },
  en: {
    accounts: { settings: { sections: { labels: 'Pallet labels' } } },
    label_settings: {
      title: 'Pallet labels (GS1-128)',
      intro:
        'At the first print of its labels, each pallet gets an 18-digit SSCC: extension digit 0, your GS1 company prefix, a serial number and the check digit. Your prefix is assigned by GS1 (7 to 10 digits).',
      prefix: 'GS1 company prefix',
      prefix_hint: '7 to 10 digits, as GS1 assigned it.',
      prefix_format: 'The prefix is 7 to 10 digits, without spaces or other characters.',
      save: 'Save',
      used: 'SSCCs given: %{used} of %{max} available with this prefix.',
      none: 'No prefix set: pallet labels cannot be printed yet.',
      read_only: 'Only the carrier’s main account can change the prefix.',
    },
  },
  fr: {
    accounts: { settings: { sections: { labels: 'Étiquettes palettes' } } },
    label_settings: {
      title: 'Étiquettes des palettes (GS1-128)',
      intro:
        'À la première impression de ses étiquettes, chaque palette reçoit un SSCC de 18 chiffres : chiffre d’extension 0, votre préfixe d’entreprise GS1, un numéro de série et le chiffre de contrôle. Le préfixe vous est attribué par GS1 (7 à 10 chiffres).',
      prefix: 'Préfixe d’entreprise GS1',
      prefix_hint: '7 à 10 chiffres, tel qu’attribué par GS1.',
      prefix_format: 'Le préfixe compte 7 à 10 chiffres, sans espace ni autre caractère.',
      save: 'Enregistrer',
      used: 'SSCC attribués : %{used} sur %{max} disponibles avec ce préfixe.',
      none: 'Aucun préfixe : les étiquettes des palettes ne peuvent pas encore être imprimées.',
      read_only: 'Seul le compte principal du transporteur peut modifier le préfixe.',
    },
  },
};
