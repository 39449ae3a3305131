import { useEffect, useState } from 'react';

/**
 * A same-site path to return to after login: never an absolute or protocol-relative URL, never the
 * login (or another page in `excluded`) itself; `fallback` otherwise.
 */
export function safeNext(next: string | null | undefined, fallback = '/dashboard', excluded: readonly string[] = ['/login']): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if (excluded.some((path) => next === path || next.startsWith(`${path}?`) || next.startsWith(`${path}/`))) return fallback;
  return next;
}

/** Whole seconds until `until` (epoch ms), ticking every second; 0 when unset or past (the login's throttle countdown). */
export function useCountdown(until: number | null): number {
  const left = () => (until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (until === null) return undefined;
    const timer = setInterval(() => {
      const value = left();
      setSeconds(value);
      if (value === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}
