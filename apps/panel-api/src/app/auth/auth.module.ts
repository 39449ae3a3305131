import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { AccessTokenGuard } from './access-token.guard';
import { AccessTokenService } from './access-token.service';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { AdminLoginEvents } from './admin-login-events';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { Clock, SystemClock } from './clock';
import { AccountLoginDelay } from './account-login-delay';
import { AdminUser } from './entities/admin-user.entity';
import { AuthThrottle } from './entities/auth-throttle.entity';
import { RevokedToken } from './entities/revoked-token.entity';
import { CredentialCheckThrottle, LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { TokenRevocations } from './token-revocations';
import { TotpVerifier } from './totp-verifier';

const TOTP_ISSUER = 'SignPulse';

/** Admin login, tokens, TOTP, and the global guard that makes every other route require a token. */
@Module({
  imports: [TypeOrmModule.forFeature([AdminUser, AuthThrottle, RevokedToken])],
  controllers: [AuthController],
  providers: [
    { provide: Clock, useClass: SystemClock },
    {
      provide: LoginThrottle,
      inject: [PANEL_CONFIG, Clock],
      useFactory: (config: PanelConfig, clock: Clock) => new LoginThrottle(config.auth.loginThrottle, clock),
    },
    {
      provide: CredentialCheckThrottle,
      inject: [PANEL_CONFIG, Clock],
      useFactory: (config: PanelConfig, clock: Clock) => new CredentialCheckThrottle(config.auth.loginThrottle, clock),
    },
    { provide: TotpVerifier, inject: [Clock], useFactory: (clock: Clock) => new TotpVerifier(clock, TOTP_ISSUER) },
    PasswordHasher,
    AccessTokenService,
    AccountLoginDelay,
    AdminBootstrapService,
    AdminLoginEvents,
    AuthService,
    TokenRevocations,
    { provide: APP_GUARD, useClass: AccessTokenGuard },
  ],
  exports: [AccessTokenService, AdminLoginEvents, TokenRevocations],
})
export class AuthModule {}
