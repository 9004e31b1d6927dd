/** Texts of the portal settings (server.md §9). */
export const settings = {
  en: {
    'settings.saved': 'Settings saved',
    'settings.visitorCompanyInvalid': 'Choose an active carrier company.',
    'settings.templateType': 'The template must be an .xls or .xlsx spreadsheet.',
    'settings.templateMissing': 'No file has been uploaded for this template.',
    'field.visitor_company_id': 'carrier for visitors',
    'field.remove_templates': 'templates to remove',
  },
  it: {
    'settings.saved': 'Impostazioni salvate',
    'settings.visitorCompanyInvalid': 'Scegli un’azienda vettore attiva.',
    'settings.templateType': 'Il modello deve essere un foglio di calcolo .xls o .xlsx.',
    'settings.templateMissing': 'Nessun file è stato caricato per questo modello.',
    'field.visitor_company_id': 'vettore per i visitatori',
    'field.remove_templates': 'modelli da rimuovere',
  },
  fr: {
    'settings.saved': 'Paramètres enregistrés',
    'settings.visitorCompanyInvalid': 'Choisissez une entreprise de transport active.',
    'settings.templateType': 'Le modèle doit être une feuille de calcul .xls ou .xlsx.',
    'settings.templateMissing': 'Aucun fichier n’a été téléversé pour ce modèle.',
    'field.visitor_company_id': 'transporteur des visiteurs',
    'field.remove_templates': 'modèles à supprimer',
  },
};
