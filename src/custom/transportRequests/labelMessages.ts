/** The request screen's pallet label download (issue 36 item 3, docs/pallet-labels.md). */
export const labelMessages = {
  it: {
    pallet_labels: {
      button: 'Etichette',
      menu: 'Etichette dei bancali',
      pdf: 'PDF (A6, una per bancale)',
      zpl: 'ZPL (stampante termica 4 × 6″)',
      file: 'etichette-%{id}',
    },
  },
  en: {
    pallet_labels: {
      button: 'Labels',
      menu: 'Pallet labels',
      pdf: 'PDF (A6, one per pallet)',
      zpl: 'ZPL (4 × 6″ thermal printer)',
      file: 'labels-%{id}',
    },
  },
  fr: {
    pallet_labels: {
      button: 'Étiquettes',
      menu: 'Étiquettes des palettes',
      pdf: 'PDF (A6, une par palette)',
      zpl: 'ZPL (imprimante thermique 4 × 6″)',
      file: 'etiquettes-%{id}',
    },
  },
};
