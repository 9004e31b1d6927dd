import type { Lang } from '../../../model/resource';
import { AUDIT_TEXTS } from './format';

/**
 * Texts of the audit log screens and the "Attività" sections (`audit.*`), in it, en, fr: the actions from
 * the formatter's table (one source for both), the columns, filters and empty states. The column and filter
 * labels of the list come from the declaration (`resources.audit-log.fields.*`).
 */
const own: Record<Lang, Record<string, unknown>> = {
  it: {
    activity: 'Attività',
    activity_empty: 'Nessuna attività registrata',
    who: 'Chi',
    changes: 'Modifiche',
    no_changes: '—',
    system: 'Sistema',
    from: 'Dal',
    to: 'Al',
    open: 'Apri %{what}',
    sign_ins: 'Mostra gli accessi',
  },
  en: {
    activity: 'Activity',
    activity_empty: 'No recorded activity',
    who: 'Who',
    changes: 'Changes',
    no_changes: '—',
    system: 'System',
    from: 'From',
    to: 'To',
    open: 'Open %{what}',
    sign_ins: 'Show sign-ins',
  },
  fr: {
    activity: 'Activité',
    activity_empty: 'Aucune activité enregistrée',
    who: 'Qui',
    changes: 'Modifications',
    no_changes: '—',
    system: 'Système',
    from: 'Du',
    to: 'Au',
    open: 'Ouvrir %{what}',
    sign_ins: 'Afficher les connexions',
  },
};

const withActions = (l: Lang) => ({ audit: { ...own[l], actions: AUDIT_TEXTS[l].actions } });

export const auditMessages: Record<Lang, Record<string, unknown>> = { it: withActions('it'), en: withActions('en'), fr: withActions('fr') };
