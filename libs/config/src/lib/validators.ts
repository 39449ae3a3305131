import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';
import { parseBooleanFlag, parseDuration, parseHostPort } from './parse';

/** Turns `"true"`, `"0"`, `"yes"` … into booleans; anything else stays a string and fails `@IsBoolean`. */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (value === undefined || value === null || value === '') return undefined;
    // Anything but one string or boolean (a repeated query parameter is an array) fails @IsBoolean.
    if (typeof value !== 'string' && typeof value !== 'boolean') return value;
    const parsed = parseBooleanFlag(value);
    return parsed === undefined ? value : parsed;
  });
}

/** Turns a decimal string into a number; anything else stays as it is and fails `@IsInt`. */
export function ToInteger(): PropertyDecorator {
  return Transform(({ value }) => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number') return value;
    return /^-?\d+$/.test(String(value).trim()) ? Number(String(value).trim()) : value;
  });
}

/** Empty strings count as "not set", so optional variables may be present but blank. */
export function EmptyAsUndefined(): PropertyDecorator {
  return Transform(({ value }) => (value === '' ? undefined : value));
}

export function IsHostPort(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHostPort',
      validator: {
        validate: (value) => typeof value === 'string' && parseHostPort(value) !== undefined,
        defaultMessage: buildMessage((each) => `${each}$property must be host:port with a non-empty host and a port from 0 to 65535`, options),
      },
    },
    options,
  );
}

export function IsDuration(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDuration',
      validator: {
        validate: (value) => typeof value === 'string' && parseDuration(value) !== undefined,
        defaultMessage: buildMessage((each) => `${each}$property must be a duration such as 30s, 5m or 12h`, options),
      },
    },
    options,
  );
}

export function IsHttpUrl(opts: { httpsOnly?: boolean } = {}, options?: ValidationOptions): PropertyDecorator {
  const protocols = opts.httpsOnly ? ['https:'] : ['http:', 'https:'];
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value) => {
          if (typeof value !== 'string') return false;
          try {
            const url = new URL(value);
            return protocols.includes(url.protocol) && url.hostname.length > 0;
          } catch {
            return false;
          }
        },
        defaultMessage: buildMessage(
          (each) => `${each}$property must be an ${opts.httpsOnly ? 'https' : 'http(s)'} URL`,
          options,
        ),
      },
    },
    options,
  );
}
