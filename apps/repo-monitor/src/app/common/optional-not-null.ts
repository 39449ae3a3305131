import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';

/**
 * For partial updates: the field may be left out (unchanged), but `null` is refused with
 * validation_failed. `@IsOptional()` lets null through to the service, which would store it in a
 * field that has no "cleared" state; use this instead wherever null means nothing.
 */
export function OptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    ValidateBy(
      {
        name: 'notNull',
        validator: {
          validate: (value: unknown) => value !== null,
          defaultMessage: () => '$property must not be null: leave it out to keep the current value',
        },
      },
      options,
    ),
  );
}
