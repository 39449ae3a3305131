import { ValidateBy } from 'class-validator';
import { MonitorError } from './monitor-error';

/**
 * An http(s) URL as the service will use it (WHATWG parsing, as fetch and the browser do), or
 * undefined. class-validator's IsUrl accepts shapes this parser refuses, such as an IPv6 zone id
 * (`https://[fe80::1%25eth0]/`), which then failed later where the value was used (a 500).
 */
export function parseHttpUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return undefined;
  return url;
}

function httpUrlRule(field: string): string {
  return `${field} must be an http(s) URL with a host name or an IP address (an IPv6 zone id such as %25eth0 is not supported)`;
}

/** parseHttpUrl, or a 400 validation_failed naming `field`. */
export function requireHttpUrl(value: string, field: string): URL {
  const url = parseHttpUrl(value);
  if (!url) {
    throw new MonitorError('validation_failed', httpUrlRule(field), { field });
  }
  return url;
}

/**
 * Next to class-validator's IsUrl on a console field: the value must also parse as the service will
 * parse it (parseHttpUrl), so a shape only IsUrl accepts is a 400 naming the field, not a later 500.
 */
export function ParsesAsHttpUrl(field: string): PropertyDecorator {
  return ValidateBy({
    name: 'parsesAsHttpUrl',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || parseHttpUrl(value) !== undefined,
      defaultMessage: () => httpUrlRule(field),
    },
  });
}
