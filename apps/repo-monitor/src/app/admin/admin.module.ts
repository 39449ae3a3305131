import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminAccountRepository } from './admin-account.repository';
import { AdminAccountService } from './admin-account.service';
import { AdminSessionRepository } from './admin-session.repository';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { LoginThrottle } from './login-throttle';
import { SessionService } from './session.service';
import { SetupController } from './setup.controller';
import { TotpVerifier } from './totp-verifier';

/** The admin account, sessions, the global auth guard, setup, sign-in and the audit log. */
@Module({
  controllers: [SetupController, AuthController],
  providers: [
    AdminAccountRepository,
    AdminSessionRepository,
    AdminAccountService,
    SessionService,
    { provide: LoginThrottle, useFactory: () => new LoginThrottle() },
    { provide: TotpVerifier, useFactory: () => new TotpVerifier() },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AdminAccountService, SessionService],
})
export class AdminModule {}
