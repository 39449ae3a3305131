import { toSettingsPatch, UpdateSettingsDto } from './update-settings.dto';

describe('toSettingsPatch', () => {
  it('drops empty secrets, turns other empty text into null, and keeps explicit nulls', () => {
    const dto: UpdateSettingsDto = Object.assign(new UpdateSettingsDto(), {
      webdav_password: '',
      bot_token: null,
      ai_api_key: 'sk-1',
      webdav_username: '',
      timezone: 'Europe/Berlin',
    });
    expect(toSettingsPatch(dto)).toEqual({ bot_token: null, ai_api_key: 'sk-1', webdav_username: null, timezone: 'Europe/Berlin' });
  });
});
