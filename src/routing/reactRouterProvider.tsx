/**
 * react-admin's router adapter without react-router's data router (issue 18), put in place of ra-core's
 * own `routing/adapters/reactRouterProvider.js` by the build (build/routerAdapter.ts).
 *
 * ra-core's adapter imports `createHashRouter` and `RouterProvider` for the case where the app is not
 * inside a router yet; that pulls react-router's whole data router (about 55 kB of the 95 kB of
 * react-router the login loaded) into every first load. The portal always is inside one: src/main.tsx
 * wraps both shells in a `HashRouter` (not a data router, so navigation blocking is off either way:
 * `useCanBlock` answers false, as it did). Everything else is ra-core's adapter as it is (ra-core 5.15):
 * when a react-admin upgrade changes its adapter, compare the two (the build fails when the file moved).
 */
import { useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';
import {
  HashRouter,
  Link,
  Navigate,
  Outlet,
  Route,
  Routes,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  matchPath,
  useBlocker,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate as useReactRouterNavigate,
  useParams,
} from 'react-router-dom';

const useCanBlock = () => {
  const dataRouterContext = useContext(UNSAFE_DataRouterContext);
  const dataRouterStateContext = useContext(UNSAFE_DataRouterStateContext);
  return !!(dataRouterContext && dataRouterStateContext);
};

/** A stable navigate function (react-router's changes on every navigation), as ra-core's adapter does. */
const useNavigate = () => {
  const navigate = useReactRouterNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  return useCallback((...args: Parameters<typeof navigate>) => navigateRef.current(...args), []);
};

/** Outside a router (never in the portal: main.tsx has one) a plain HashRouter, not a data router. */
const RouterWrapper = ({ basename, children }: { basename?: string; children: ReactNode }) => {
  const isInRouter = useInRouterContext();
  if (isInRouter) return <>{children}</>;
  return <HashRouter basename={basename}>{children}</HashRouter>;
};

export const reactRouterProvider = {
  useNavigate,
  useLocation,
  useParams,
  useBlocker,
  useMatch,
  useInRouterContext,
  useCanBlock,
  Link,
  Navigate,
  Route,
  Routes,
  Outlet,
  RouterWrapper,
  matchPath,
};
