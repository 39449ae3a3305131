import { randomBytes } from 'node:crypto';
import { TelegramSimulator } from '../../../test/telegram-simulator';
import { TelegramSimulatorServer } from '../../../test/telegram-simulator-server';
import { GramJsTelegramGateway } from './gramjs-telegram-gateway';
import { encodeSessionString } from './session-string';
import { SimulatorTelegramGateway } from './simulator-telegram-gateway';
import { StubTelegramWorld } from './testing/stub-gramjs-client';
import { contractBotAnswer, contractBotCallback, ContractWorld, ContractWorldOptions, telegramGatewayContract } from './testing/telegram-gateway-contract';

const credentials = { apiId: 12345, apiHash: '0123456789abcdef0123456789abcdef' };
const LOGIN_CODE = '24680';

async function adapterWorld(options: ContractWorldOptions): Promise<ContractWorld> {
  const me = { id: 4242, firstName: 'Me', username: 'contract_me', phone: '3161234567' };
  const bot = { id: 7001, username: 'contract_bot' };
  const stub = new StubTelegramWorld({
    me,
    bot: {
      ...bot,
      onMessage: (text) => {
        const reply = contractBotAnswer(text);
        return reply && { text: reply.text, inlineButtons: reply.inlineButtons, replyKeyboard: reply.replyKeyboard, photo: reply.photo };
      },
      onCallback: contractBotCallback,
    },
    loginCode: LOGIN_CODE,
    passwordHint: options.password?.hint,
  });
  if (options.password) await stub.setPassword(options.password.value);
  const gateway = new GramJsTelegramGateway({ credentials: () => credentials, clientFactory: () => stub.newClient() });
  return {
    gateway,
    session: { accountName: 'contract', sessionString: encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey: randomBytes(256) }) },
    me: { id: String(me.id), username: me.username },
    bot: { chat: `@${bot.username}`, id: String(bot.id) },
    botWrites: (text) => void stub.pushFromBot(text),
    officialWrites: (text) => void stub.append(777000, { out: false, message: text }),
    phone: `+${me.phone}`,
    loginCode: () => LOGIN_CODE,
    scanQr: (status) => stub.scanQr(status.qrUrl ?? ''),
    close: () => gateway.close(),
  };
}

async function simulatorWorld(options: ContractWorldOptions): Promise<ContractWorld> {
  return simulatorWorldOf(new TelegramSimulator(), options);
}

/** The same simulator served as its own process would serve it, reached through the test-only APP_TELEGRAM_GATEWAY=simulator client. */
async function simulatorProcessWorld(options: ContractWorldOptions): Promise<ContractWorld> {
  const server = new TelegramSimulatorServer({ staleMs: 5_000 });
  const { gatewayUrl } = await server.listen();
  const gateway = new SimulatorTelegramGateway(gatewayUrl);
  const world = simulatorWorldOf(server.simulator, options);
  return {
    ...world,
    gateway,
    close: async () => {
      await gateway.close();
      await server.close();
    },
  };
}

function simulatorWorldOf(simulator: TelegramSimulator, options: ContractWorldOptions): ContractWorld {
  const user = simulator.createUser({ phone: '+31 6 12345678', username: 'contract_me', password: options.password?.value, passwordHint: options.password?.hint });
  const bot = simulator.addBot({
    username: 'contract_bot',
    onMessage: (text) => {
      const reply = contractBotAnswer(text);
      return reply && { text: reply.text, inlineButtons: reply.inlineButtons && [reply.inlineButtons], replyKeyboard: reply.replyKeyboard && [reply.replyKeyboard], photo: reply.photo };
    },
    onCallback: (button) => ({ answer: contractBotCallback(button) }),
  });
  const sessionString = simulator.issueSession(user.id);
  // A second device of the account, for the device list.
  simulator.issueSession(user.id, { deviceModel: 'Pixel 8', officialApp: true });
  return {
    gateway: simulator,
    session: { accountName: 'contract', sessionString },
    me: { id: user.id, username: 'contract_me' },
    bot: { chat: '@contract_bot', id: bot.id },
    botWrites: (text) => void simulator.pushIncoming(user.id, bot.id, { text, senderId: bot.id }),
    officialWrites: (text) => void simulator.addOfficialMessage(user.id, text),
    phone: '+31 6 12345678',
    loginCode: () => simulator.lastLoginCode('+31 6 12345678') ?? '',
    scanQr: (status) => simulator.scanQr(status.loginId, user.id),
    close: async () => undefined,
  };
}

telegramGatewayContract('GramJS adapter on a stubbed GramJS client', adapterWorld);
telegramGatewayContract('Telegram simulator (apps/panel-api/test)', simulatorWorld);
telegramGatewayContract('Telegram simulator as a process, through SimulatorTelegramGateway (test only)', simulatorProcessWorld);
