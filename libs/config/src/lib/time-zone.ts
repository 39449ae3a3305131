/** Whether `value` names an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isIanaTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
