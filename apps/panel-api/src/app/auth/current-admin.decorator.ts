import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedAdmin } from './access-token.service';
import type { AuthenticatedRequest } from './access-token.guard';

/** The admin the global guard authenticated for this request. */
export const CurrentAdmin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedAdmin => context.switchToHttp().getRequest<AuthenticatedRequest>().admin,
);
