import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { SettingsService } from '../settings/settings.service';
import { AI_CLIENT, AiClient, AiError } from './ai-client';
import { AI_TEST_ERROR_KINDS, AiTestErrorKind, AiTestResultDto } from './dto/ai-test.dto';
import { PanelError } from '../common/panel-error';

/** As long as an AI action may wait for the model, so a slow but working model passes. */
export const AI_TEST_TIMEOUT_MS = 60_000;
const ANSWER_PREVIEW_LENGTH = 200;

@ApiTags('settings')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config/ai')
export class AiTestController {
  constructor(
    @Inject(AI_CLIENT) private readonly ai: AiClient,
    private readonly settings: SettingsService,
  ) {}

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ask the saved AI model a short question and report its answer or the failure',
    description:
      'Uses the saved ai_base_url, ai_model and ai_api_key (save them first), through the same client the AI actions use. ' +
      'A failure of the model API answers 200 with ok=false, a classified error_kind (unreachable, unauthorized, rate_limited, bad_response, refused, timeout), ' +
      'the HTTP status when the API answered, and a message of our own: the upstream body is never repeated.',
  })
  @ApiOkResponse({ type: AiTestResultDto })
  @ApiBadRequestResponse({ description: 'ai_model or ai_api_key is not saved' })
  async test(): Promise<AiTestResultDto> {
    const saved = this.settings.getAi();
    if (!saved.model || !saved.api_key) throw new PanelError('ai_not_configured', 'Save ai_model and ai_api_key in the settings first');
    const base = { model: saved.model, base_url: saved.base_url };
    const started = Date.now();
    try {
      const answer = await this.ai.answer(
        { instruction: 'This is a connection test. Reply with the single word OK.', text: 'Connection test' },
        { signal: new AbortController().signal, timeoutMs: AI_TEST_TIMEOUT_MS },
      );
      return { ok: true, ...base, latency_ms: Date.now() - started, answer: answer.slice(0, ANSWER_PREVIEW_LENGTH) };
    } catch (error) {
      if (error instanceof AiError && error.kind === 'not_configured') throw new PanelError('ai_not_configured', error.message);
      return {
        ok: false,
        ...base,
        latency_ms: Date.now() - started,
        error_kind: error instanceof AiError && AI_TEST_ERROR_KINDS.includes(error.kind as AiTestErrorKind) ? (error.kind as AiTestErrorKind) : 'error',
        ...(error instanceof AiError && error.status !== undefined ? { status: error.status } : {}),
        error: error instanceof AiError ? error.message : 'The model API failed in an unexpected way',
      };
    }
  }
}
