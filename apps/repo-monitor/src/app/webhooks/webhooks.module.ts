import { Module } from '@nestjs/common';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { ProcessingModule } from '../processing/processing.module';
import { InboundWebhookSecretSource, SettingsWebhookSecretSource } from './inbound-webhook-secrets';
import { SignatureFailureLimiter } from './signature-failure-limiter';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [GithubAppSettingsModule, ProcessingModule],
  controllers: [WebhooksController],
  providers: [
    { provide: InboundWebhookSecretSource, useClass: SettingsWebhookSecretSource },
    WebhookSignatureVerifier,
    { provide: SignatureFailureLimiter, useFactory: () => new SignatureFailureLimiter() },
  ],
})
export class WebhooksModule {}
