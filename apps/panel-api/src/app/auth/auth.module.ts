import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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
import { DatabaseThrottleStore } from './database-throttle-store';
import { CredentialCheckThrottle, LoginThrottle, MemoryThrottleStore, ThrottleStore } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { TokenRevocations } from './token-revocations';
import { TotpVerifier } from './totp-verifier';

const TOTP_ISSUER = 'SignPulse';

function throttleStore(config: PanelConfig, dataSource: DataSource, scope: string): ThrottleStore {
  const { windowSeconds } = config.auth.loginThrottle;
  return config.database.driver === 'postgres' ? new DatabaseThrottleStore(dataSource, scope, windowSeconds) : new MemoryThrottleStore(windowSeconds);
}

/** Admin login, tokens, TOTP, and the global guard that makes every other route require a token. */
@Module({
  imports: [TypeOrmModule.forFeature([AdminUser, AuthThrottle, RevokedToken])],
  controllers: [AuthController],
  providers: [
    { provide: Clock, useClass: SystemClock },
    // On PostgreSQL (replicas) the failures are counted in the database, so every replica counts them all.
    {
      provide: LoginThrottle,
      inject: [PANEL_CONFIG, Clock, getDataSourceToken()],
      useFactory: (config: PanelConfig, clock: Clock, dataSource: DataSource) => new LoginThrottle(config.auth.loginThrottle, clock, throttleStore(config, dataSource, 'login')),
    },
    {
      provide: CredentialCheckThrottle,
      inject: [PANEL_CONFIG, Clock, getDataSourceToken()],
      useFactory: (config: PanelConfig, clock: Clock, dataSource: DataSource) =>
        new CredentialCheckThrottle(config.auth.loginThrottle, clock, throttleStore(config, dataSource, 'credential')),
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
