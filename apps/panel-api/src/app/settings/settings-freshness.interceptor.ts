import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { from, Observable, switchMap } from 'rxjs';
import { SettingsService } from './settings.service';

/**
 * Before every request handler, re-reads the settings when another replica changed them (one
 * primary-key read of the `settings` counter), so a change made through one replica holds on the
 * next request to any. When the database cannot be asked the request goes on with the settings in
 * memory (the handler's own database work reports the outage).
 */
@Injectable()
export class SettingsFreshness implements NestInterceptor {
  private readonly logger = new Logger(SettingsFreshness.name);

  constructor(private readonly settings: SettingsService) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(
      this.settings.refresh().catch((error: unknown) => {
        this.logger.warn(`Could not look for settings changes of other replicas: ${error instanceof Error ? error.message : String(error)}`);
      }),
    ).pipe(switchMap(() => next.handle()));
  }
}
