import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';

/**
 * Turns a `config_json` sent as an object into its JSON text before validation. The global
 * ValidationPipe (class-transformer) copies objects and silently drops keys such as `constructor`
 * or `toString` — from the request body too — so the import would apply a document it never fully
 * saw. As text, the import reads every key with JSON.parse and refuses such names (400).
 */
@Injectable()
export class ConfigDocumentAsText implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const body = context.switchToHttp().getRequest<{ body?: unknown }>().body;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const fields = body as Record<string, unknown>;
      const document = fields['config_json'];
      if (document !== null && typeof document === 'object' && !Array.isArray(document)) fields['config_json'] = JSON.stringify(document);
    }
    return next.handle();
  }
}
