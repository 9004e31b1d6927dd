import type { AreaMessages } from '../../i18n';

/** The texts of the links to the tracking page (login, quote page): all the public shell carries of it up front. */
export const trackingLinkMessages: AreaMessages = {
  it: { tracking: { link: 'Traccia una spedizione', link_short: 'Traccia' } },
  en: { tracking: { link: 'Track a shipment', link_short: 'Track' } },
  fr: { tracking: { link: 'Suivre un envoi', link_short: 'Suivi' } },
};
