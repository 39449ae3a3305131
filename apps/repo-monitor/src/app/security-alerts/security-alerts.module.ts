import { Module } from '@nestjs/common';
import { SecurityAlertRepository } from './security-alert.repository';
import { SecurityAlertsController } from './security-alerts.controller';

/** The read API over security alerts, as processing recorded them. */
@Module({ providers: [SecurityAlertRepository], exports: [SecurityAlertRepository], controllers: [SecurityAlertsController] })
export class SecurityAlertsModule {}
