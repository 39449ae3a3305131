import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomPassword } from '@shared/crypto';
import { rmSync } from 'node:fs';
import { Repository } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { createFileExclusive, readTextFile, writeFileAtomic } from '../data-dir/json-file-store';
import { AdminUser } from './entities/admin-user.entity';
import { PasswordHasher } from './password-hasher';
import { PASSWORD_MIN_LENGTH, passwordRuleViolation } from './password-rule';

export const INITIAL_ADMIN_USERNAME = 'admin';

/** Meets the password rule (at least PASSWORD_MIN_LENGTH), as password-rule.spec.ts checks. */
export const GENERATED_PASSWORD_LENGTH = 24;
const MIN_BOOTSTRAP_PASSWORD_LENGTH = 16;

/**
 * Creates the admin at first start: with ADMIN_PASSWORD, or with a random password written to
 * `.admin_bootstrap_password` (0600) before the admin is inserted, so a crash in between never
 * leaves an admin whose password nobody knows. An existing admin is never touched, except by the
 * recovery switch ADMIN_PASSWORD_RESET=1, which sets its password to ADMIN_PASSWORD and turns TOTP
 * off, once.
 */
@Injectable()
export class AdminBootstrapService implements OnModuleInit {
  private readonly logger = new Logger('AdminBootstrap');

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    private readonly hasher: PasswordHasher,
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
  ) {}

  async onModuleInit(): Promise<void> {
    const configured = this.config.auth.bootstrapPassword;
    if ((await this.users.count()) > 0) {
      if (this.config.auth.passwordReset && configured) await this.resetPassword(configured);
      else if (configured) this.logger.log('An admin exists already; ADMIN_PASSWORD is only used at first start and was ignored');
      return;
    }
    if (this.config.auth.passwordReset) this.logger.log('ADMIN_PASSWORD_RESET has no effect at first start; the admin is created with ADMIN_PASSWORD');
    if (configured) {
      if (await this.insertAdmin(configured)) {
        this.logger.log(`Created the admin "${INITIAL_ADMIN_USERNAME}" with the password from ADMIN_PASSWORD`);
        this.warnIfBelowRule(configured);
      }
      return;
    }
    const { password, createdFile } = this.writeBootstrapPasswordFile();
    if (await this.insertAdmin(password)) {
      this.logger.warn(
        `Created the admin "${INITIAL_ADMIN_USERNAME}" with a generated password; read it from ` +
          `${this.dataDirectory.adminBootstrapPasswordFile} and change it after the first login`,
      );
      return;
    }
    // Another instance created the admin first. Keep the file only while it still opens that admin.
    const winner = await this.firstAdmin();
    if (createdFile && !(winner && (await this.hasher.verify(winner.passwordHash, password)))) {
      rmSync(this.dataDirectory.adminBootstrapPasswordFile, { force: true });
    }
  }

  /**
   * The generated password, on disk before any admin uses it. A file left by a start that stopped
   * before inserting (or written by an instance starting beside this one) is reused, so the file
   * and the admin always agree.
   */
  private writeBootstrapPasswordFile(): { password: string; createdFile: boolean } {
    this.dataDirectory.prepare();
    const path = this.dataDirectory.adminBootstrapPasswordFile;
    const generated = randomPassword(GENERATED_PASSWORD_LENGTH);
    if (createFileExclusive(path, `${generated}\n`)) return { password: generated, createdFile: true };
    const existing = readTextFile(path)?.trim();
    if (existing && existing.length >= MIN_BOOTSTRAP_PASSWORD_LENGTH) {
      this.logger.log(`Reusing the generated password in ${path} from an earlier start that did not finish creating the admin`);
      return { password: existing, createdFile: false };
    }
    writeFileAtomic(path, `${generated}\n`);
    return { password: generated, createdFile: true };
  }

  /** Inserts the first admin; false when another instance on the same database was faster. */
  private async insertAdmin(password: string): Promise<boolean> {
    const user = this.users.create({
      username: INITIAL_ADMIN_USERNAME,
      passwordHash: await this.hasher.hash(password),
      totpSecret: null,
      totpEnabled: false,
      tokenVersion: 0,
    });
    try {
      await this.users.insert(user);
      return true;
    } catch (error) {
      if ((await this.users.count()) > 0) return false;
      throw error;
    }
  }

  /**
   * An ADMIN_PASSWORD that met the older 8-character rule still starts an install that worked
   * before; the owner is told the rule a password chosen in the panel must meet.
   */
  private warnIfBelowRule(password: string): void {
    if (!passwordRuleViolation(password)) return;
    this.logger.warn(
      `ADMIN_PASSWORD is shorter than the password rule (at least ${PASSWORD_MIN_LENGTH} characters); it was accepted so this install keeps working. ` +
        `Change the password in the panel (Profile) to one of at least ${PASSWORD_MIN_LENGTH} characters.`,
    );
  }

  private async firstAdmin(): Promise<AdminUser | undefined> {
    const [admin] = await this.users.find({ order: { id: 'ASC' }, take: 1 });
    return admin;
  }

  /**
   * ADMIN_PASSWORD_RESET=1: sets the admin's password to ADMIN_PASSWORD, turns TOTP off (an owner
   * who lost the authenticator is locked out as surely as one who forgot the password) and
   * revokes every token. The hash of the applied password is remembered, so later starts with the
   * switch still on do not undo a password or TOTP the admin has set up since; a different
   * ADMIN_PASSWORD resets again.
   */
  private async resetPassword(password: string): Promise<void> {
    const markerFile = this.dataDirectory.adminPasswordResetFile;
    const applied = readTextFile(markerFile)?.trim();
    if (applied && (await this.hasher.verify(applied, password))) {
      this.logger.warn('ADMIN_PASSWORD_RESET=1: this ADMIN_PASSWORD was applied at an earlier start; nothing reset. Remove ADMIN_PASSWORD_RESET.');
      return;
    }
    const admin = await this.firstAdmin();
    if (!admin) return;
    const hadTotp = admin.totpEnabled;
    admin.passwordHash = await this.hasher.hash(password);
    admin.totpEnabled = false;
    admin.totpSecret = null;
    admin.tokenVersion += 1;
    await this.users.save(admin);
    this.dataDirectory.prepare();
    writeFileAtomic(markerFile, `${admin.passwordHash}\n`);
    rmSync(this.dataDirectory.adminBootstrapPasswordFile, { force: true });
    this.warnIfBelowRule(password);
    this.logger.warn(
      `ADMIN_PASSWORD_RESET=1: the password of admin "${admin.username}" was reset to ADMIN_PASSWORD, ` +
        `${hadTotp ? 'TOTP was turned off, ' : ''}and earlier tokens are revoked. ` +
        'Remove ADMIN_PASSWORD_RESET, change the password after logging in and set up TOTP again if you use it.',
    );
  }
}
