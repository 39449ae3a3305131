import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_ROUTE = 'monitor:isPublic';

/** Opts a route out of the global authentication guard. Every use is a deliberate decision. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_ROUTE, true);
