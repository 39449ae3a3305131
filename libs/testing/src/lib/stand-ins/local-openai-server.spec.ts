import OpenAI from 'openai';
import { chatMessageText, LocalOpenAiServer } from './local-openai-server';

describe('LocalOpenAiServer with the openai client', () => {
  const server = new LocalOpenAiServer({ apiKey: 'sk-local', models: ['gpt-4o-mini', 'local-vision'] });
  const client = (options: { timeout?: number; maxRetries?: number } = {}): OpenAI =>
    new OpenAI({ apiKey: 'sk-local', baseURL: server.baseUrl, timeout: options.timeout ?? 2000, maxRetries: options.maxRetries ?? 0 });

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.completions.length = 0;
    server.setReply((request) => `echo: ${chatMessageText(request.messages.at(-1))}`);
  });

  it('answers chat completions with content computed from the request, and usage', async () => {
    const completion = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: '2+2?' }], max_tokens: 50 });
    expect(completion.choices[0]?.message.content).toBe('echo: 2+2?');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(server.completions[0]).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 50 });
  });

  it('returns JSON content a caller asked for and explicit token counts', async () => {
    server.setReply(() => ({ content: JSON.stringify({ score: 42 }), promptTokens: 10, completionTokens: 5 }));
    const completion = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'review' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ score: 42 });
    expect(completion.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(server.completions[0]?.response_format).toEqual({ type: 'json_object' });
  });

  it('shows image parts of a vision request to the reply function', async () => {
    server.setReply((request) => chatMessageText(request.messages[0]));
    const completion = await client().chat.completions.create({
      model: 'local-vision',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'which one?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }],
    });
    expect(completion.choices[0]?.message.content).toBe('which one?\n[image]');
  });

  it('streams', async () => {
    server.setReply(() => 'a streamed answer that is longer than one chunk');
    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('a streamed answer that is longer than one chunk');
  });

  it('lists models and refuses a wrong key', async () => {
    const models = await client().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-4o-mini', 'local-vision']);
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: server.baseUrl, maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('times out on a delayed answer', async () => {
    // Answered after 10 s, far from the bound below, so a starved machine cannot blur the two.
    server.failNext({ kind: 'delay', ms: 10_000 });
    const started = Date.now();
    // Outside Jest this is APIConnectionTimeoutError; inside, fetch's AbortError comes from another
    // realm and the client reports its parent class, APIConnectionError.
    await expect(client({ timeout: 200 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'slow' }] })).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 5xx (which the client retries) and malformed JSON', async () => {
    server.failNext({ kind: 'status', status: 503 });
    const retried = await client({ maxRetries: 1 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] });
    expect(retried.choices[0]?.message.content).toBe('echo: again');
    expect(server.completions).toHaveLength(2);

    server.failNext({ kind: 'status', status: 500, message: 'boom' });
    await expect(client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 500 });

    server.failNext({ kind: 'malformed' });
    await expect(client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow();
  });
});
