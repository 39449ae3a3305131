import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { AdminAccountService } from './admin-account.service';
import { AuthGuard } from './auth.guard';
import { SessionService } from './session.service';

describe('AuthGuard outside HTTP', () => {
  // Neither is reached for a non-HTTP context: the guard must decide before looking at credentials.
  const unreachable = <T>(name: string): T =>
    new Proxy({}, { get: () => { throw new Error(`${name} must not be consulted`); } }) as T;

  it.each(['rpc', 'ws'])('denies a %s context by default', async (type) => {
    class AnyController {
      handle(): void {
        return undefined;
      }
    }
    const context = new ExecutionContextHost([{}, {}, {}], AnyController, AnyController.prototype.handle);
    context.setType(type);
    const guard = new AuthGuard(
      new Reflector(),
      unreachable<SessionService>('sessions'),
      unreachable<AdminAccountService>('accounts'),
      unreachable<GithubAppSharedSettings>('settings'),
    );
    await expect(guard.canActivate(context)).resolves.toBe(false);
  });
});
