import { useCallback, useEffect, useState } from 'react';
import { usePermissions } from 'react-admin';
import { apiRequest, toQueryString, type Query } from '../../api/http';

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

/** A GET that reloads whenever its path or query change (null path: nothing to load yet). */
export function useApiGet<T = any>(path: string | null, query?: Query): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: !!path });
  const [tick, setTick] = useState(0);
  const key = path ? `${path}${toQueryString(query)}` : null;
  useEffect(() => {
    if (!path) {
      setState({ loading: false });
      return;
    }
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    apiRequest<T>(path, { query, signal: ctrl.signal })
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
