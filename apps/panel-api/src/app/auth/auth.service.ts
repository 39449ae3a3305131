import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as QRCode from 'qrcode';
import { issueKnownDeviceToken, knownDeviceId } from '@shared/crypto';
import { Repository } from 'typeorm';
import { AccessTokenService, AuthenticatedAdmin, IssuedToken } from './access-token.service';
import { AccountLoginDelay } from './account-login-delay';
import { AdminLoginEvents } from './admin-login-events';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { ChangePasswordDto, ChangeUsernameDto, LoginDto, MeDto, TotpEnabledDto, TotpSetupDto } from './dto/auth.dto';
import { AdminUser } from './entities/admin-user.entity';
import { CredentialCheckThrottle, LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { TotpVerifier } from './totp-verifier';
import { TokenRevocations } from './token-revocations';
import { PanelError, ValidationFailed } from '../common/panel-error';

/** Where a login comes from: the client address, and what the browser may prove about itself. */
export interface LoginSource {
  client: string;
  /** The known-device cookie's value, when the request carries one. */
  knownDeviceToken?: string;
  /** A bearer token the request carries (a live session of the same admin). */
  accessToken?: string;
}

/** Login, the admin's own account settings and TOTP. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AccessTokenService,
    private readonly throttle: LoginThrottle,
    private readonly credentialChecks: CredentialCheckThrottle,
    private readonly totp: TotpVerifier,
    private readonly loginEvents: AdminLoginEvents,
    private readonly accountDelay: AccountLoginDelay,
    private readonly revocations: TokenRevocations,
    private readonly bootstrap: AdminBootstrapService,
  ) {}

  /**
   * Checks the credentials and issues a token. Two limits apply: failures per client address
   * (LoginThrottle), and guesses at the account from anywhere (AccountLoginDelay), which a known
   * browser skips: one that carries a known-device token of this account or a live access token.
   */
  async login(credentials: LoginDto, source: LoginSource): Promise<IssuedToken & { knownDeviceToken: string }> {
    const { client } = source;
    await this.refuseWhileBlocked(client);
    const user = await this.users.findOneBy({ username: credentials.username });
    const delayed = user !== null && !(await this.isKnownBrowser(user, source));
    if (delayed) await this.accountDelay.beginPasswordCheck(user.id);
    let passwordMatches: boolean;
    try {
      passwordMatches = user
        ? await this.hasher.verify(user.passwordHash, credentials.password)
        : await this.hasher.verifyDecoy(credentials.password);
    } catch (error) {
      if (delayed) await this.accountDelay.releasePasswordCheck(user.id);
      throw error;
    }
    // The block may have started while the hash was being checked by a parallel attempt.
    await this.refuseWhileBlocked(client);
    if (!user || !passwordMatches) throw await this.failure(client, 'invalid_credentials', 'Invalid username or password');
    if (user.totpEnabled) {
      if (!credentials.totp_code) throw await this.failure(client, 'totp_required', 'TOTP code required');
      // The guesser knows the password: wrong codes slow the account down far more than wrong passwords.
      if (delayed) await this.accountDelay.beginTotpCheck(user.id);
      if (!user.totpSecret || !this.totp.verify(String(user.id), user.totpSecret, credentials.totp_code)) {
        throw await this.failure(client, 'totp_invalid', 'Invalid or already used TOTP code');
      }
    }
    await this.throttle.recordSuccess(client);
    // A known browser's success leaves the account's count alone: it says nothing about the guesser.
    if (delayed) await this.accountDelay.succeeded(user.id);
    this.logger.log(`Admin "${user.username}" logged in from ${client}`);
    const issued = await this.tokens.issue(user);
    this.loginEvents.emit({ username: user.username, clientIp: client, at: new Date() });
    return { ...issued, knownDeviceToken: issueKnownDeviceToken(user.passwordHash, user.username) };
  }

  /** Logs the request's token out (it answers 401 from now on); other sessions stay. */
  async logout(admin: AuthenticatedAdmin): Promise<void> {
    await this.tokens.revoke(admin);
    // Its open event streams end at once, on every replica.
    this.revocations.tokenRevoked(admin.tokenId);
    this.logger.log(`Admin "${admin.username}" logged out`);
  }

  private async isKnownBrowser(user: AdminUser, source: LoginSource): Promise<boolean> {
    if (knownDeviceId(source.knownDeviceToken, user.passwordHash, user.username)) return true;
    if (!source.accessToken) return false;
    const holder = await this.tokens.verify(source.accessToken).catch(() => undefined);
    return holder?.id === user.id;
  }

  async me(admin: AuthenticatedAdmin): Promise<MeDto> {
    const user = await this.userOf(admin);
    return {
      username: user.username,
      totp_enabled: user.totpEnabled,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    };
  }

  /** Sets a new password; every token issued before stops working, and a fresh one is returned. */
  async changePassword(admin: AuthenticatedAdmin, change: ChangePasswordDto): Promise<IssuedToken> {
    const user = await this.userWithPassword(admin, change.current_password);
    if (change.new_password === change.current_password) {
      throw ValidationFailed.ofField('new_password must differ from current_password', 'new_password', 'same_as_current', 'Choose a password other than the current one.');
    }
    user.passwordHash = await this.hasher.hash(change.new_password);
    user.tokenVersion += 1;
    await this.users.save(user);
    // The generated first-start password is no longer valid; do not leave it lying around (here,
    // in the database, and so in every replica's data directory).
    await this.bootstrap.forgetSharedPassword();
    this.logger.log(`Admin "${user.username}" changed the password; earlier tokens are revoked`);
    return this.tokens.issue(user);
  }

  /** Renames the admin; every token issued before stops working, and a fresh one is returned. */
  async changeUsername(admin: AuthenticatedAdmin, change: ChangeUsernameDto): Promise<IssuedToken> {
    const user = await this.userWithPassword(admin, change.current_password);
    if (change.new_username === user.username) {
      throw ValidationFailed.ofField('new_username is the current username', 'new_username', 'same_as_current', 'This is already your user name; enter a different one.');
    }
    if (await this.users.existsBy({ username: change.new_username })) {
      throw new PanelError('username_taken', 'That username is taken');
    }
    const previous = user.username;
    user.username = change.new_username;
    user.tokenVersion += 1;
    await this.users.save(user);
    this.logger.log(`Admin "${previous}" is now "${user.username}"; earlier tokens are revoked`);
    return this.tokens.issue(user);
  }

  /**
   * Creates a new pending TOTP secret; it takes effect only after `enableTotp` with a valid code.
   * Needs the current password: a stolen token alone must not be able to lock the owner out.
   */
  async setupTotp(admin: AuthenticatedAdmin, currentPassword: string): Promise<TotpSetupDto> {
    const user = await this.userWithPassword(admin, currentPassword);
    if (user.totpEnabled) throw new PanelError('totp_already_enabled', 'TOTP is already enabled; disable it first');
    const secret = this.totp.generateSecret();
    user.totpSecret = secret;
    await this.users.save(user);
    const uri = this.totp.keyUri(user.username, secret);
    return { secret, otpauth_uri: uri, qr_code_data_url: await QRCode.toDataURL(uri) };
  }

  /**
   * Turns TOTP on (current password and a code of the pending secret). Every token issued before
   * stops working, so a session someone else may hold does not survive the new second factor; the
   * caller's session continues with the fresh token returned.
   */
  async enableTotp(admin: AuthenticatedAdmin, code: string, currentPassword: string): Promise<TotpEnabledDto> {
    const user = await this.userWithPassword(admin, currentPassword);
    if (user.totpEnabled) throw new PanelError('totp_already_enabled', 'TOTP is already enabled');
    if (!user.totpSecret) throw new PanelError('totp_not_set_up', 'Call POST /api/auth/totp/setup first');
    await this.checkCode(user, code);
    user.totpEnabled = true;
    user.tokenVersion += 1;
    await this.users.save(user);
    this.logger.log(`Admin "${user.username}" enabled TOTP; earlier tokens are revoked`);
    return { totp_enabled: true, ...(await this.tokens.issue(user)) };
  }

  async disableTotp(admin: AuthenticatedAdmin, code: string): Promise<void> {
    const user = await this.userOf(admin);
    if (!user.totpEnabled || !user.totpSecret) throw new PanelError('totp_not_enabled', 'TOTP is not enabled');
    await this.refuseWhileChecksBlocked(user);
    await this.checkCode(user, code);
    user.totpEnabled = false;
    user.totpSecret = null;
    await this.users.save(user);
    this.logger.log(`Admin "${user.username}" disabled TOTP`);
  }

  /** A TOTP code of the user's secret; a wrong one counts towards the per-account limit. */
  private async checkCode(user: AdminUser, code: string): Promise<void> {
    if (!user.totpSecret || !this.totp.verify(String(user.id), user.totpSecret, code)) {
      await this.credentialChecks.recordFailure(credentialKey(user));
      this.logger.warn(`Wrong TOTP code for admin "${user.username}"`);
      throw new PanelError('wrong_totp_code', 'Invalid or already used TOTP code');
    }
    await this.credentialChecks.recordSuccess(credentialKey(user));
  }

  private async refuseWhileChecksBlocked(user: AdminUser): Promise<void> {
    const retryAfterSeconds = await this.credentialChecks.retryAfterSeconds(credentialKey(user));
    if (retryAfterSeconds > 0) {
      throw new PanelError('rate_limited', `Too many wrong passwords or TOTP codes for this account; try again in ${retryAfterSeconds} s`, retryAfterSeconds);
    }
  }

  private async refuseWhileBlocked(client: string): Promise<void> {
    const retryAfterSeconds = await this.throttle.retryAfterSeconds(client);
    if (retryAfterSeconds > 0) {
      throw new PanelError('rate_limited', `Too many failed logins; try again in ${retryAfterSeconds} s`, retryAfterSeconds);
    }
  }

  /** Counts a failed login of the client and returns the error to answer it with. */
  private async failure(client: string, code: 'invalid_credentials' | 'totp_required' | 'totp_invalid', message: string): Promise<PanelError> {
    await this.throttle.recordFailure(client);
    this.logger.warn(`Failed login from ${client}: ${message}`);
    return new PanelError(code, message);
  }

  private async userOf(admin: AuthenticatedAdmin): Promise<AdminUser> {
    const user = await this.users.findOneBy({ id: admin.id });
    if (!user) throw new PanelError('admin_not_found', 'The admin account no longer exists');
    return user;
  }

  /** The admin, after checking their current password; wrong ones count towards the per-account limit. */
  private async userWithPassword(admin: AuthenticatedAdmin, password: string): Promise<AdminUser> {
    const user = await this.userOf(admin);
    await this.refuseWhileChecksBlocked(user);
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      await this.credentialChecks.recordFailure(credentialKey(user));
      this.logger.warn(`Wrong current_password for admin "${user.username}"`);
      throw new PanelError('wrong_current_password', 'current_password is wrong');
    }
    await this.credentialChecks.recordSuccess(credentialKey(user));
    return user;
  }
}

function credentialKey(user: AdminUser): string {
  return `admin:${user.id}`;
}
