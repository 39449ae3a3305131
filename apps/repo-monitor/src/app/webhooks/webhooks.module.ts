import { Module } from '@nestjs/common';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { ProcessingModule } from '../processing/processing.module';
import { InboundWebhookSecretSource, SettingsWebhookSecretSource } from './inbound-webhook-secrets';
import { SignatureFailureLimiter } from './signature-failure-limiter';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';
import { WebhookRejectionRecorder } from './webhook-rejection-recorder';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [GithubAppSettingsModule, ProcessingModule, DeliveriesModule],
  controllers: [WebhooksController],
  providers: [
    { provide: InboundWebhookSecretSource, useClass: SettingsWebhookSecretSource },
    WebhookSignatureVerifier,
    WebhookRejectionRecorder,
    { provide: SignatureFailureLimiter, useFactory: () => new SignatureFailureLimiter() },
  ],
  exports: [WebhookRejectionRecorder],
})
export class WebhooksModule {}
