import { useEffect, useState } from 'react';

/** Whole seconds until `until` (epoch ms), ticking every second; 0 when unset or past. */
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
