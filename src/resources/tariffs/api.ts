import { useCallback, useEffect, useState } from 'react';
import { useDataProvider, usePermissions } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';

/** Tariff calls live under /admin for admins (any carrier) and /company for carriers (their own). */
export function useNamespace(): { ns: '/admin' | '/company'; isAdmin: boolean; ready: boolean } {
  const { permissions, isPending } = usePermissions();
  const isAdmin = permissions === 'admin';
  return { ns: isAdmin ? '/admin' : '/company', isAdmin, ready: !isPending };
}

export interface Loaded<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  refetch: () => void;
}

/**
 * A read through one of the data provider's named methods (`load`), again whenever `key` changes (null:
 * nothing to load yet) or `refetch` is called; a new answer is a new object, so screens can tell a reload.
 */
export function useProviderRead<T = any>(key: string | null, load: (dataProvider: PortalDataProvider, signal: AbortSignal) => Promise<T>): Loaded<T> {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: !!key });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!key) {
      setState({ loading: false });
      return;
    }
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load(dataProvider, ctrl.signal)
      .then((data) => setState({ data, loading: false }))
      .catch((error) => {
        if ((error as Error)?.name !== 'AbortError') setState({ error, loading: false });
      });
    return () => ctrl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tick]);
  const refetch = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, refetch };
}
