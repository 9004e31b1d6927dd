/**
 * Messages of the declared resources' import (issue 34, server/lib/declaredImport.ts), registered by that
 * module (`registerMessages`). The file-level refusals and the cell messages they share with the tariffs
 * (`import.*`: too large, unreadable, no header row, a number expected…) are in ./tariffs.ts.
 */
// The publish's counts as "label: number", which reads right for 0, 1 and many in every language.
export const declaredImport = {
  en: {
    'declaredImport.published': 'Rows added: {added}; changed: {changed}.',
    'declaredImport.date': '"{value}" is not a date: write it as a date cell, or as YYYY-MM-DD or DD/MM/YYYY.',
    'declaredImport.month': '"{value}" is not a month: write it as YYYY-MM or MM/YYYY.',
    'declaredImport.flag': '"{value}" is not a yes or no: write 1 or 0, yes or no.',
    'declaredImport.choice': '"{value}" is not one of the choices: {values}.',
    'declaredImport.cents': '"{value}" has more than 2 decimals: amounts are in euros and cents.',
    'declaredImport.reference': 'No {what} matches "{value}": write its ID or its name as the list shows it.',
    'declaredImport.referenceAmbiguous': 'More than one {what} is named "{value}": write its ID instead.',
    'declaredImport.duplicate': 'The {column} "{value}" is already given in row {first}.',
    'declaredImport.conflict': 'The data changed while the file was being imported: nothing was imported. Upload the file again.',
  },
  it: {
    'declaredImport.published': 'Righe aggiunte: {added}; modificate: {changed}.',
    'declaredImport.date': '"{value}" non è una data: scrivila come cella data, o come AAAA-MM-GG o GG/MM/AAAA.',
    'declaredImport.month': '"{value}" non è un mese: scrivilo come AAAA-MM o MM/AAAA.',
    'declaredImport.flag': '"{value}" non è un sì o un no: scrivi 1 o 0, sì o no.',
    'declaredImport.choice': '"{value}" non è una delle scelte: {values}.',
    'declaredImport.cents': '"{value}" ha più di 2 decimali: gli importi sono in euro e centesimi.',
    'declaredImport.reference': 'Nessun valore di {what} corrisponde a "{value}": scrivi il suo ID o il nome come appare nella lista.',
    'declaredImport.referenceAmbiguous': 'Più valori di {what} si chiamano "{value}": scrivi invece il suo ID.',
    'declaredImport.duplicate': 'Il valore "{value}" di {column} è già presente alla riga {first}.',
    'declaredImport.conflict': 'I dati sono cambiati durante l’importazione del file: non è stato importato nulla. Carica di nuovo il file.',
  },
  fr: {
    'declaredImport.published': 'Lignes ajoutées : {added} ; modifiées : {changed}.',
    'declaredImport.date': '« {value} » n’est pas une date : écrivez-la comme cellule date, ou au format AAAA-MM-JJ ou JJ/MM/AAAA.',
    'declaredImport.month': '« {value} » n’est pas un mois : écrivez-le au format AAAA-MM ou MM/AAAA.',
    'declaredImport.flag': '« {value} » n’est ni oui ni non : écrivez 1 ou 0, oui ou non.',
    'declaredImport.choice': '« {value} » ne fait pas partie des choix : {values}.',
    'declaredImport.cents': '« {value} » a plus de 2 décimales : les montants sont en euros et centimes.',
    'declaredImport.reference': 'Aucune valeur de {what} ne correspond à « {value} » : écrivez son ID ou son nom tel que la liste l’affiche.',
    'declaredImport.referenceAmbiguous': 'Plusieurs valeurs de {what} s’appellent « {value} » : écrivez plutôt son ID.',
    'declaredImport.duplicate': 'La valeur « {value} » de {column} figure déjà à la ligne {first}.',
    'declaredImport.conflict': 'Les données ont changé pendant l’import du fichier : rien n’a été importé. Téléversez de nouveau le fichier.',
  },
};
