import { useCallback, useEffect, useState } from 'react';
import { usePermissions } from 'react-admin';
import { API_BASE, apiPassword } from '../../config';
import { readToken } from '../../authProvider/session';
import { apiRequest, requestLocale, toHttpError, toQueryString, type Query } from '../../api/http';

/** Tariff calls live under /admin for admins (any carrier) and /company for carriers (their own). */
export function useNamespace(): { ns: '/admin' | '/company'; isAdmin: boolean; ready: boolean } {
  const { permissions, isPending } = usePermissions();
  const isAdmin = permissions === 'admin';
  return { ns: isAdmin ? '/admin' : '/company', isAdmin, ready: !isPending };
}

/** The filename of a Content-Disposition header (RFC 5987 form first). */
export function attachmentFilename(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/**
 * Downloads a file the API answers as an attachment: fetched with the bearer header (a token never goes
 * into a URL, server.md §5), then saved through a temporary blob link.
 */
export async function downloadFile(path: string, query: Query | undefined, fallbackName: string) {
  const res = await apiRequest<Response>(path, { query, raw: true });
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = attachmentFilename(res.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Sends a multipart form with XMLHttpRequest, whose upload events report progress (fetch cannot), with
 * the same headers and error normalisation as apiRequest. `onProgress` gets 0–100 while the bytes travel.
 */
export function uploadWithProgress<T = any>(path: string, form: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${window.location.origin}${API_BASE}${path}`);
    xhr.setRequestHeader('X-Api-Password', apiPassword());
    xhr.setRequestHeader('Accept-Language', requestLocale());
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(toHttpError(xhr.status, body));
    };
    xhr.onerror = () => reject(toHttpError(0, { message: 'ra.notification.http_error' }));
    xhr.send(form);
  });
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
