import { createContext, useContext } from 'react';

/** The paths that have a screen; the menu shows only those (each entry appears once its screen exists). */
export const RoutedPathsContext = createContext<Set<string>>(new Set(['/']));
export const useRoutedPaths = () => useContext(RoutedPathsContext);
