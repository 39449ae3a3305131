import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomPassword } from '@shared/crypto';
import { rmSync } from 'node:fs';
import { Repository } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { createFileExclusive, readTextFile, writeFileAtomic } from '../data-dir/json-file-store';
import { ADMIN_BOOTSTRAP_PASSWORD_SECRET, SharedSecretStore } from '../shared-secrets/shared-secret.store';
import { AdminUser } from './entities/admin-user.entity';
import { PasswordHasher } from './password-hasher';
import { PASSWORD_MIN_LENGTH, passwordRuleViolation } from './password-rule';

export const INITIAL_ADMIN_USERNAME = 'admin';

/** Meets the password rule (at least PASSWORD_MIN_LENGTH), as password-rule.spec.ts checks. */
export const GENERATED_PASSWORD_LENGTH = 24;
const MIN_BOOTSTRAP_PASSWORD_LENGTH = 16;
/** Replicas: how often a replica holding the password file looks whether the admin has changed the password. */
export const BOOTSTRAP_PASSWORD_CHECK_MS = 5_000;

/**
 * Creates the admin at first start: with ADMIN_PASSWORD, or with a random password written to
 * `.admin_bootstrap_password` (0600) before the admin is inserted, so a crash in between never
 * leaves an admin whose password nobody knows. An existing admin is never touched, except by the
 * recovery switch ADMIN_PASSWORD_RESET=1, which sets its password to ADMIN_PASSWORD and turns TOTP
 * off, once.
 *
 * Replicas on PostgreSQL (each with its own data directory) starting at once: the generated password
 * is agreed in the database first (sealed in `shared_secrets`, the first replica's candidate wins),
 * then written to every replica's own `.admin_bootstrap_password`, so whichever pod a person opens
 * holds the password of the one admin (the unique user name lets only one insert succeed). It stays
 * in the database until the password is changed; then every replica removes its file (at its next
 * check, within BOOTSTRAP_PASSWORD_CHECK_MS, or at its next start).
 */
@Injectable()
export class AdminBootstrapService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AdminBootstrap');
  private fileCheck?: NodeJS.Timeout;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    private readonly hasher: PasswordHasher,
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly secrets: SharedSecretStore,
  ) {}

  /** Whether the generated password is agreed in the database (replicas on PostgreSQL). */
  private get shared(): boolean {
    return this.config.database.driver === 'postgres';
  }

  onModuleDestroy(): void {
    clearInterval(this.fileCheck);
  }

  async onModuleInit(): Promise<void> {
    const configured = this.config.auth.bootstrapPassword;
    if ((await this.users.count()) > 0) {
      if (this.config.auth.passwordReset && configured) await this.resetPassword(configured);
      else if (configured) this.logger.log('An admin exists already; ADMIN_PASSWORD is only used at first start and was ignored');
      if (this.shared) await this.syncSharedPasswordFile();
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
    if (this.shared) return this.bootstrapReplica();
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
   * First start on PostgreSQL without ADMIN_PASSWORD: agree the password in the database (a file an
   * unfinished start left is the candidate), write it here, then insert the admin; a replica that
   * loses the insert to another has the same password already.
   */
  private async bootstrapReplica(): Promise<void> {
    this.dataDirectory.prepare();
    const path = this.dataDirectory.adminBootstrapPasswordFile;
    const left = readTextFile(path)?.trim();
    const candidate = left && left.length >= MIN_BOOTSTRAP_PASSWORD_LENGTH ? left : randomPassword(GENERATED_PASSWORD_LENGTH);
    const { value: password } = await this.secrets.putIfAbsent(ADMIN_BOOTSTRAP_PASSWORD_SECRET, candidate);
    if (readTextFile(path)?.trim() !== password) writeFileAtomic(path, `${password}\n`);
    const created = await this.insertAdmin(password);
    const winner = await this.firstAdmin();
    if (!winner || !(await this.hasher.verify(winner.passwordHash, password))) {
      // An admin made otherwise (ADMIN_PASSWORD on another replica): the generated password opens nothing.
      await this.forgetSharedPassword();
      return;
    }
    this.logger.warn(
      `${created ? 'Created' : 'Another replica created'} the admin "${INITIAL_ADMIN_USERNAME}" with a generated password; read it from ` +
        `${path} (every replica writes it into its own data directory) and change it after the first login`,
    );
    this.watchSharedPassword();
  }

  /**
   * An admin exists (PostgreSQL): while the generated password is still in the database (not changed
   * yet), this replica's data directory holds it too; once it is gone, the file goes.
   */
  private async syncSharedPasswordFile(): Promise<void> {
    const path = this.dataDirectory.adminBootstrapPasswordFile;
    let password: string | undefined;
    try {
      password = await this.secrets.read(ADMIN_BOOTSTRAP_PASSWORD_SECRET);
    } catch (error) {
      this.logger.warn(`The generated admin password in the database cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (password === undefined) {
      rmSync(path, { force: true });
      return;
    }
    const admin = await this.firstAdmin();
    if (!admin || !(await this.hasher.verify(admin.passwordHash, password))) {
      await this.forgetSharedPassword();
      return;
    }
    this.dataDirectory.prepare();
    if (readTextFile(path)?.trim() !== password) writeFileAtomic(path, `${password}\n`);
    this.logger.warn(`The admin "${admin.username}" still has the generated password; read it from ${path} and change it after logging in`);
    this.watchSharedPassword();
  }

  /** Removes this replica's file soon after the password was changed on any replica. */
  private watchSharedPassword(): void {
    clearInterval(this.fileCheck);
    this.fileCheck = setInterval(() => {
      void this.secrets.read(ADMIN_BOOTSTRAP_PASSWORD_SECRET).then(
        (password) => {
          if (password !== undefined) return;
          rmSync(this.dataDirectory.adminBootstrapPasswordFile, { force: true });
          clearInterval(this.fileCheck);
          this.logger.log('The generated admin password was changed; removed its file from this data directory');
        },
        (error: unknown) => this.logger.warn(`Checking whether the generated admin password was changed failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, BOOTSTRAP_PASSWORD_CHECK_MS);
    this.fileCheck.unref();
  }

  /** The generated password no longer opens the admin: out of the database and this data directory. */
  async forgetSharedPassword(): Promise<void> {
    if (this.shared) await this.secrets.remove(ADMIN_BOOTSTRAP_PASSWORD_SECRET);
    rmSync(this.dataDirectory.adminBootstrapPasswordFile, { force: true });
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
    await this.forgetSharedPassword();
    this.warnIfBelowRule(password);
    this.logger.warn(
      `ADMIN_PASSWORD_RESET=1: the password of admin "${admin.username}" was reset to ADMIN_PASSWORD, ` +
        `${hadTotp ? 'TOTP was turned off, ' : ''}and earlier tokens are revoked. ` +
        'Remove ADMIN_PASSWORD_RESET, change the password after logging in and set up TOTP again if you use it.',
    );
  }
}
