import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { OUTBOUND_DISPATCHER, createOutboundDispatcher } from './outbound-dispatcher';

/** Provides OUTBOUND_DISPATCHER (proxy-aware) to every feature that calls the outside world. */
@Global()
@Module({
  providers: [
    {
      provide: OUTBOUND_DISPATCHER,
      inject: [MONITOR_CONFIG],
      useFactory: (config: MonitorConfig): Dispatcher => createOutboundDispatcher(config.proxy),
    },
  ],
  exports: [OUTBOUND_DISPATCHER],
})
export class OutboundModule implements OnApplicationShutdown {
  constructor(@Inject(OUTBOUND_DISPATCHER) private readonly dispatcher: Dispatcher) {}

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.close();
  }
}
