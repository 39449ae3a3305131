import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import {
  NavigateOptions,
  URLSearchParamsInit,
  useSearchParams,
} from 'react-router';

/** Sets the URL's query: to the given parameters, or to what a function makes of the current ones. */
export type SetUrlParams = (next: URLSearchParamsInit | ((current: URLSearchParams) => URLSearchParamsInit), options?: NavigateOptions) => void;

/**
 * `useSearchParams` whose changes render at once. react-router runs a navigation as a React
 * transition, so for a moment after a click the URL has changed while the page still renders the
 * old parameters; a select changed in that moment is then built on the old ones (or reset by them).
 * A filter change is a small, synchronous render: it is flushed before the click handler returns.
 * The function form reads the parameters of the latest render, so a delayed change (a search typed
 * 400 ms ago) keeps what was changed meanwhile. Needs a `RouterProvider` given ReactDOM's
 * `flushSync`, as `WebApp` does.
 */
export function useUrlParams(): [URLSearchParams, SetUrlParams] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  });
  const set = useCallback<SetUrlParams>(
    (next, options) => setParams(typeof next === 'function' ? next(latest.current) : next, { flushSync: true, ...options }),
    [setParams],
  );
  return [params, set];
}

export interface UrlFilter<F> {
  /** The filter the URL holds: what the list shows. */
  filter: F;
  /** The URL's query string, for query keys. */
  key: string;
  /** The form's values: follow the URL (back, forward, a shared link) and are applied with `go`. */
  draft: F;
  field: <K extends keyof F>(name: K, value: F[K]) => void;
  /** Puts a filter in the URL. */
  go: (next: F) => void;
  /** Removes every filter from the URL. */
  clear: () => void;
}

/**
 * A filter form kept in the URL: the list reads `filter`, the form edits `draft` and applies it with
 * `go`. When the URL changes, the draft takes its values in the same render (no effect that could run
 * after the person's next change and undo it).
 */
export function useUrlFilter<F>(
  fromParams: (params: URLSearchParams) => F,
  toParams: (filter: F) => URLSearchParams,
): UrlFilter<F> {
  const [params, setParams] = useUrlParams();
  const key = params.toString();
  const filter = fromParams(params);
  const [draft, setDraft] = useState({ key, values: filter });
  let values = draft.values;
  if (draft.key !== key) {
    values = filter;
    setDraft({ key, values });
  }
  return {
    filter,
    key,
    draft: values,
    field: (name, value) =>
      setDraft((current) => ({
        ...current,
        values: { ...current.values, [name]: value },
      })),
    go: (next) => setParams(toParams(next)),
    clear: () => setParams(new URLSearchParams()),
  };
}
