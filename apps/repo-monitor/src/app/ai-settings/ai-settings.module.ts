import { Module } from '@nestjs/common';
import { AiSettingsController } from './ai-settings.controller';
import { AiSettingsService, EFFECTIVE_AI_SETTINGS } from './ai-settings.service';

/** AI settings; the AI features inject EFFECTIVE_AI_SETTINGS and call current() per use. */
@Module({
  controllers: [AiSettingsController],
  providers: [AiSettingsService, { provide: EFFECTIVE_AI_SETTINGS, useExisting: AiSettingsService }],
  exports: [AiSettingsService, EFFECTIVE_AI_SETTINGS],
})
export class AiSettingsModule {}
