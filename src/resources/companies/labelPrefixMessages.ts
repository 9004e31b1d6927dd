/** Texts of the admin's GS1 prefix card on a carrier company's detail screen (docs/pallet-labels.md). */
export const labelPrefixMessages = {
  it: {
    company_labels: {
      title: 'Etichette bancali (GS1)',
      prefix: 'Prefisso aziendale GS1',
      prefix_hint: 'Da 7 a 10 cifre, come assegnato da GS1: i codici SSCC dei bancali di questo vettore partono da qui.',
      prefix_format: 'Il prefisso è di 7-10 cifre, senza spazi né altri caratteri.',
      save: 'Salva prefisso',
      used: 'Codici SSCC assegnati: %{used} su %{max}.',
      none: 'Nessun prefisso: il vettore non può ancora stampare le etichette dei bancali.',
      read_only: 'Solo un amministratore del portale o l’account principale del vettore può cambiare il prefisso.',
    },
  },
  en: {
    company_labels: {
      title: 'Pallet labels (GS1)',
      prefix: 'GS1 company prefix',
      prefix_hint: '7 to 10 digits, as GS1 assigned it: this carrier’s pallet SSCCs start with it.',
      prefix_format: 'The prefix is 7 to 10 digits, without spaces or other characters.',
      save: 'Save prefix',
      used: 'SSCCs given: %{used} of %{max}.',
      none: 'No prefix: the carrier cannot print pallet labels yet.',
      read_only: 'Only a portal administrator or the carrier’s main account can change the prefix.',
    },
  },
  fr: {
    company_labels: {
      title: 'Étiquettes palettes (GS1)',
      prefix: 'Préfixe d’entreprise GS1',
      prefix_hint: '7 à 10 chiffres, tel qu’attribué par GS1 : les SSCC des palettes de ce transporteur commencent ainsi.',
      prefix_format: 'Le préfixe compte 7 à 10 chiffres, sans espace ni autre caractère.',
      save: 'Enregistrer le préfixe',
      used: 'SSCC attribués : %{used} sur %{max}.',
      none: 'Aucun préfixe : le transporteur ne peut pas encore imprimer d’étiquettes de palettes.',
      read_only: 'Seul un administrateur du portail ou le compte principal du transporteur peut changer le préfixe.',
    },
  },
};
