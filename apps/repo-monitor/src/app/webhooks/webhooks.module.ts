import { Module } from '@nestjs/common';
import { DeliveryInbox } from './delivery-inbox';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { InboundWebhookSecretSource, SettingsWebhookSecretSource } from './inbound-webhook-secrets';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [GithubAppSettingsModule],
  controllers: [WebhooksController],
  providers: [{ provide: InboundWebhookSecretSource, useClass: SettingsWebhookSecretSource }, WebhookSignatureVerifier, DeliveryInbox],
  exports: [DeliveryInbox],
})
export class WebhooksModule {}
