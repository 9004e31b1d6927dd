import { createContext, useContext } from 'react';

/**
 * Counts shown as badges on sidebar entries: a page declares a hook (`PortalPage.menuBadge`) and the
 * entry with its path shows the number. Keyed by path.
 */
export const MenuBadgesContext = createContext<Record<string, () => number>>({});
export const useMenuBadges = () => useContext(MenuBadgesContext);
