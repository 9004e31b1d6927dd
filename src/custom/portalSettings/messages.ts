import type { AreaMessages } from '../../i18n';

const templates = {
  it: {
    cs_express_hub_costs: 'Costi hub express', cs_express_island_zones: 'Zone isole express', cs_express_hub_codes: 'Codici hub express',
    cs_express_special_zones: 'Zone speciali express', standard_special_zones: 'Zone speciali standard', standard_no_passage: 'Non transito standard',
    express_rate_sheet: 'Listino express', standard_rate_sheet: 'Listino standard',
  },
  en: {
    cs_express_hub_costs: 'Express hub costs', cs_express_island_zones: 'Express island zones', cs_express_hub_codes: 'Express hub codes',
    cs_express_special_zones: 'Express special zones', standard_special_zones: 'Standard special zones', standard_no_passage: 'Standard no passage',
    express_rate_sheet: 'Express rate sheet', standard_rate_sheet: 'Standard rate sheet',
  },
  fr: {
    cs_express_hub_costs: 'Coûts hub express', cs_express_island_zones: 'Zones îles express', cs_express_hub_codes: 'Codes hub express',
    cs_express_special_zones: 'Zones spéciales express', standard_special_zones: 'Zones spéciales standard', standard_no_passage: 'Non-passage standard',
    express_rate_sheet: 'Tarif express', standard_rate_sheet: 'Tarif standard',
  },
};

/** Texts of the admin's portal settings (/portal-settings). */
export const portalSettingsMessages: AreaMessages = {
  it: {
    portalSettings: {
      title: 'Impostazioni portale',
      visitor_section: 'Preventivi online',
      visitor_help: 'Il vettore che prezza i preventivi della pagina pubblica /quote (con il suo moltiplicatore per i visitatori).',
      visitor_company: 'Vettore per i visitatori', visitor_none: 'Nessuno: preventivi online non disponibili',
      templates_section: 'Modelli di importazione',
      templates_help: 'I file che le schermate delle tariffe offrono da scaricare. Senza un file caricato vale il modello incorporato.',
      template: 'Modello', current: 'File attuale', none: 'Modello incorporato', replace: 'Carica .xls/.xlsx', chosen: 'Da caricare: %{name}',
      download: 'Scarica', remove: 'Rimuovi', undo_remove: 'Annulla rimozione', to_remove: 'Sarà rimosso',
      save: 'Salva', saved: 'Impostazioni salvate',
      templates: templates.it,
    },
  },
  en: {
    portalSettings: {
      title: 'Portal settings',
      visitor_section: 'Online quotes',
      visitor_help: 'The carrier that prices the quotes of the public /quote page (with its visitor multiplier).',
      visitor_company: 'Carrier for visitors', visitor_none: 'None: online quotes not available',
      templates_section: 'Import templates',
      templates_help: 'The files the tariff screens offer for download. Without an uploaded file the built-in template applies.',
      template: 'Template', current: 'Current file', none: 'Built-in template', replace: 'Upload .xls/.xlsx', chosen: 'To upload: %{name}',
      download: 'Download', remove: 'Remove', undo_remove: 'Undo remove', to_remove: 'Will be removed',
      save: 'Save', saved: 'Settings saved',
      templates: templates.en,
    },
  },
  fr: {
    portalSettings: {
      title: 'Paramètres du portail',
      visitor_section: 'Devis en ligne',
      visitor_help: 'Le transporteur qui chiffre les devis de la page publique /quote (avec son multiplicateur visiteurs).',
      visitor_company: 'Transporteur des visiteurs', visitor_none: 'Aucun : devis en ligne indisponibles',
      templates_section: 'Modèles d’import',
      templates_help: 'Les fichiers proposés au téléchargement par les écrans des tarifs. Sans fichier téléversé, le modèle intégré s’applique.',
      template: 'Modèle', current: 'Fichier actuel', none: 'Modèle intégré', replace: 'Téléverser .xls/.xlsx', chosen: 'À téléverser : %{name}',
      download: 'Télécharger', remove: 'Supprimer', undo_remove: 'Annuler la suppression', to_remove: 'Sera supprimé',
      save: 'Enregistrer', saved: 'Paramètres enregistrés',
      templates: templates.fr,
    },
  },
};
