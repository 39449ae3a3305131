import { Module } from '@nestjs/common';
import { fetchThrough } from '@shared/outbound-http';
import type { Dispatcher } from 'undici';
import { OUTBOUND_DISPATCHER } from '../outbound/outbound-dispatcher';
import { SystemVersionController } from './system-version.controller';
import { SystemVersionService } from './system-version.service';
import { UPDATE_CHECK_FETCH } from './update-check';

/** About API: GET /api/v1/system/version and the remote update check. */
@Module({
  controllers: [SystemVersionController],
  providers: [
    SystemVersionService,
    {
      provide: UPDATE_CHECK_FETCH,
      inject: [{ token: OUTBOUND_DISPATCHER, optional: true }],
      useFactory: (dispatcher?: Dispatcher) => fetchThrough(dispatcher),
    },
  ],
  exports: [SystemVersionService],
})
export class SystemVersionModule {}
