import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AiTestDto } from '../ai/dto/ai.dto';
import { UpdateAiSettingsDto } from '../ai-settings/dto/ai-settings.dto';
import { UpdateGithubAppSettingsDto } from '../github-app-settings/dto/github-app-settings.dto';
import { UpdateNotificationChannelDto } from '../notification-channels/dto/notification-channel.dto';
import { UpdateRepositoryTogglesDto } from '../repositories/dto/repository.dto';
import { UpdateSystemSettingsDto } from '../system-settings/dto/system-settings.dto';

type DtoClass = new () => object;

/** The property paths that failed, as the global ValidationPipe would see them. */
async function failures(dto: DtoClass, body: Record<string, unknown>): Promise<string[]> {
  const errors = await validate(plainToInstance(dto, body), { whitelist: true, forbidNonWhitelisted: true });
  const paths: string[] = [];
  const walk = (list: typeof errors, prefix: string) => {
    for (const error of list) {
      const path = `${prefix}${error.property}`;
      if (error.constraints) paths.push(path);
      walk(error.children ?? [], `${path}.`);
    }
  };
  walk(errors, '');
  return paths;
}

describe('null in update bodies', () => {
  it.each([
    [UpdateAiSettingsDto, ['enabled', 'base_url', 'model', 'timeout', 'max_tokens', 'retries', 'digest_enabled', 'triage_enabled', 'release_summary_enabled', 'code_review_enabled', 'failure_analysis_enabled']],
    [AiTestDto, ['api_key', 'base_url', 'model', 'timeout', 'max_tokens', 'retries']],
    [UpdateNotificationChannelDto, ['name', 'enabled', 'chat_id', 'url', 'secret', 'allow_private', 'event_kinds']],
    [UpdateRepositoryTogglesDto, ['issues', 'pull_requests', 'workflow_runs', 'security_alerts', 'releases', 'stars']],
    [UpdateSystemSettingsDto, ['time_zone', 'digest_time', 'weekly_report', 'monthly_report', 'retention', 'aggregation']],
  ] as Array<[DtoClass, string[]]>)('%p refuses null in every field without a cleared state', async (dto, fields) => {
    for (const field of fields) expect({ field, failed: await failures(dto, { [field]: null }) }).toEqual({ field, failed: [field] });
  });

  it('refuses null inside the nested system settings', async () => {
    expect(await failures(UpdateSystemSettingsDto, { retention: { events_days: null }, aggregation: { burst_threshold: null } })).toEqual([
      'retention.events_days',
      'aggregation.burst_threshold',
    ]);
    expect(await failures(UpdateSystemSettingsDto, { weekly_report: { weekday: null }, monthly_report: { day: null } })).toEqual(['weekly_report.weekday', 'monthly_report.day']);
  });

  it('accepts null where it means "clear", and fields left out', async () => {
    expect(await failures(UpdateAiSettingsDto, { api_key: null })).toEqual([]);
    expect(await failures(UpdateSystemSettingsDto, { starred_username: null })).toEqual([]);
    expect(await failures(UpdateGithubAppSettingsDto, { app_id: null, client_id: null, private_key: null, webhook_secret: null, public_base_url: null })).toEqual([]);
    expect(await failures(UpdateSystemSettingsDto, { retention: { outbox_days: 10 } })).toEqual([]);
    expect(await failures(UpdateNotificationChannelDto, {})).toEqual([]);
  });
});
