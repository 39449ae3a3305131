import { describe, expect, it } from 'vitest';
import { aiFormFrom, AiSettings, aiTestBody, aiUpdateBody } from './ai-form-values';

const saved: AiSettings = {
  enabled: true,
  api_key_set: true,
  base_url: 'https://api.example.com/v1',
  model: 'm1',
  timeout: '30s',
  max_tokens: 800,
  retries: 1,
  digest_enabled: true,
  triage_enabled: false,
  release_summary_enabled: false,
  code_review_enabled: false,
  failure_analysis_enabled: false,
  locked_fields: ['model', 'api_key'],
};

describe('AI form values', () => {
  it('saves only changed, unlocked fields', () => {
    const values = { ...aiFormFrom(saved), model: 'other', retries: 3, triage_enabled: true, api_key: 'typed' };
    expect(aiUpdateBody(values, saved)).toEqual({ retries: 3, triage_enabled: true });
  });

  it('a removed key is sent as null, a typed one as text', () => {
    const unlocked = { ...saved, locked_fields: [] };
    expect(aiUpdateBody({ ...aiFormFrom(unlocked), clear_api_key: true, api_key: 'x' }, unlocked)).toEqual({ api_key: null });
    expect(aiUpdateBody({ ...aiFormFrom(unlocked), api_key: 'sk-new' }, unlocked)).toEqual({ api_key: 'sk-new' });
  });

  it('the connection test carries the unsaved unlocked values, never a locked one', () => {
    const values = { ...aiFormFrom(saved), base_url: 'http://127.0.0.1:11434/v1', model: 'ignored', api_key: 'ignored' };
    expect(aiTestBody(values, saved)).toEqual({ base_url: 'http://127.0.0.1:11434/v1', timeout: '30s', max_tokens: 800, retries: 1 });
  });
});
