import { DynamicModule, FactoryProvider, Global, InjectionToken, Module } from '@nestjs/common';

/** A replacement for a port's production provider (for example the Telegram simulator in e2e tests). */
export interface ProviderOverride {
  provide: InjectionToken;
  useValue: unknown;
}

export const PROVIDER_OVERRIDES = Symbol('PROVIDER_OVERRIDES');

export type ProviderOverrides = ReadonlyMap<InjectionToken, unknown>;

/** Makes the overrides given to createPanelApp injectable as PROVIDER_OVERRIDES. */
@Global()
@Module({})
export class ProviderOverridesModule {
  static register(overrides: readonly ProviderOverride[]): DynamicModule {
    const map: ProviderOverrides = new Map(overrides.map((override) => [override.provide, override.useValue]));
    return {
      module: ProviderOverridesModule,
      providers: [{ provide: PROVIDER_OVERRIDES, useValue: map }],
      exports: [PROVIDER_OVERRIDES],
    };
  }
}

/**
 * A port provider that a caller of createPanelApp can replace: the override when one was given for
 * `token`, otherwise what `factory` builds (the production implementation is then never created).
 */
export function overridableProvider<T, D extends unknown[]>(
  token: InjectionToken,
  factory: (...dependencies: D) => T,
  inject: InjectionToken[] = [],
): FactoryProvider<T> {
  return {
    provide: token,
    inject: [{ token: PROVIDER_OVERRIDES, optional: true }, ...inject],
    useFactory: (overrides: ProviderOverrides | undefined, ...dependencies: D) =>
      overrides?.has(token) ? (overrides.get(token) as T) : factory(...dependencies),
  };
}
