import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { rmSync } from 'node:fs';
import * as QRCode from 'qrcode';
import { Repository } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { AccessTokenService, AuthenticatedAdmin, IssuedToken } from './access-token.service';
import { AdminLoginEvents } from './admin-login-events';
import { ChangePasswordDto, ChangeUsernameDto, LoginDto, MeDto, TotpSetupDto } from './dto/auth.dto';
import { AdminUser } from './entities/admin-user.entity';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { TotpVerifier } from './totp-verifier';

/** Login, the admin's own account settings and TOTP. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AccessTokenService,
    private readonly throttle: LoginThrottle,
    private readonly totp: TotpVerifier,
    private readonly dataDirectory: DataDirectory,
    private readonly loginEvents: AdminLoginEvents,
  ) {}

  async login(credentials: LoginDto, client: string): Promise<IssuedToken> {
    this.refuseWhileBlocked(client);
    const user = await this.users.findOneBy({ username: credentials.username });
    const passwordMatches = user
      ? await this.hasher.verify(user.passwordHash, credentials.password)
      : await this.hasher.verifyDecoy(credentials.password);
    // The block may have started while the hash was being checked by a parallel attempt.
    this.refuseWhileBlocked(client);
    if (!user || !passwordMatches) this.fail(client, 'Invalid username or password');
    if (user.totpEnabled) {
      if (!credentials.totp_code) this.fail(client, 'TOTP code required');
      if (!user.totpSecret || !this.totp.verify(String(user.id), user.totpSecret, credentials.totp_code)) {
        this.fail(client, 'Invalid or already used TOTP code');
      }
    }
    this.throttle.recordSuccess(client);
    this.logger.log(`Admin "${user.username}" logged in from ${client}`);
    const issued = await this.tokens.issue(user);
    this.loginEvents.emit({ username: user.username, clientIp: client, at: new Date() });
    return issued;
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
      throw new BadRequestException('new_password must differ from current_password');
    }
    user.passwordHash = await this.hasher.hash(change.new_password);
    user.tokenVersion += 1;
    await this.users.save(user);
    // The generated first-start password is no longer valid; do not leave it lying around.
    rmSync(this.dataDirectory.adminBootstrapPasswordFile, { force: true });
    this.logger.log(`Admin "${user.username}" changed the password; earlier tokens are revoked`);
    return this.tokens.issue(user);
  }

  /** Renames the admin; every token issued before stops working, and a fresh one is returned. */
  async changeUsername(admin: AuthenticatedAdmin, change: ChangeUsernameDto): Promise<IssuedToken> {
    const user = await this.userWithPassword(admin, change.current_password);
    if (change.new_username === user.username) throw new BadRequestException('new_username is the current username');
    if (await this.users.existsBy({ username: change.new_username })) {
      throw new ConflictException('That username is taken');
    }
    const previous = user.username;
    user.username = change.new_username;
    user.tokenVersion += 1;
    await this.users.save(user);
    this.logger.log(`Admin "${previous}" is now "${user.username}"; earlier tokens are revoked`);
    return this.tokens.issue(user);
  }

  /** Creates a new pending TOTP secret; it takes effect only after `enableTotp` with a valid code. */
  async setupTotp(admin: AuthenticatedAdmin): Promise<TotpSetupDto> {
    const user = await this.userOf(admin);
    if (user.totpEnabled) throw new ConflictException('TOTP is already enabled; disable it first');
    const secret = this.totp.generateSecret();
    user.totpSecret = secret;
    await this.users.save(user);
    const uri = this.totp.keyUri(user.username, secret);
    return { secret, otpauth_uri: uri, qr_code_data_url: await QRCode.toDataURL(uri) };
  }

  async enableTotp(admin: AuthenticatedAdmin, code: string): Promise<void> {
    const user = await this.userOf(admin);
    if (user.totpEnabled) throw new ConflictException('TOTP is already enabled');
    if (!user.totpSecret) throw new ConflictException('Call POST /api/auth/totp/setup first');
    if (!this.totp.verify(String(user.id), user.totpSecret, code)) {
      throw new BadRequestException('Invalid or already used TOTP code');
    }
    user.totpEnabled = true;
    await this.users.save(user);
    this.logger.log(`Admin "${user.username}" enabled TOTP`);
  }

  async disableTotp(admin: AuthenticatedAdmin, code: string): Promise<void> {
    const user = await this.userOf(admin);
    if (!user.totpEnabled || !user.totpSecret) throw new ConflictException('TOTP is not enabled');
    if (!this.totp.verify(String(user.id), user.totpSecret, code)) {
      throw new BadRequestException('Invalid or already used TOTP code');
    }
    user.totpEnabled = false;
    user.totpSecret = null;
    await this.users.save(user);
    this.logger.log(`Admin "${user.username}" disabled TOTP`);
  }

  private refuseWhileBlocked(client: string): void {
    const retryAfterSeconds = this.throttle.retryAfterSeconds(client);
    if (retryAfterSeconds > 0) {
      throw new HttpException(
        { message: `Too many failed logins; try again in ${retryAfterSeconds} s`, retryAfterSeconds },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  private fail(client: string, message: string): never {
    this.throttle.recordFailure(client);
    this.logger.warn(`Failed login from ${client}: ${message}`);
    throw new UnauthorizedException(message);
  }

  private async userOf(admin: AuthenticatedAdmin): Promise<AdminUser> {
    const user = await this.users.findOneBy({ id: admin.id });
    if (!user) throw new NotFoundException('The admin account no longer exists');
    return user;
  }

  private async userWithPassword(admin: AuthenticatedAdmin, password: string): Promise<AdminUser> {
    const user = await this.userOf(admin);
    if (!(await this.hasher.verify(user.passwordHash, password))) throw new ForbiddenException('current_password is wrong');
    return user;
  }
}
