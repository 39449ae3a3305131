import { Module } from '@nestjs/common';
import { DeliveryInbox } from './delivery-inbox';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { InboundWebhookSecretSource, SettingsWebhookSecretSource } from './inbound-webhook-secrets';
import { SignatureFailureLimiter } from './signature-failure-limiter';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [GithubAppSettingsModule],
  controllers: [WebhooksController],
  providers: [
    { provide: InboundWebhookSecretSource, useClass: SettingsWebhookSecretSource },
    WebhookSignatureVerifier,
    { provide: SignatureFailureLimiter, useFactory: () => new SignatureFailureLimiter() },
    DeliveryInbox,
  ],
  exports: [DeliveryInbox],
})
export class WebhooksModule {}
