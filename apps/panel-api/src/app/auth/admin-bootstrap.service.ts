import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomPassword } from '@shared/crypto';
import { Repository } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { writeFileAtomic } from '../data-dir/json-file-store';
import { AdminUser } from './entities/admin-user.entity';
import { PasswordHasher } from './password-hasher';

export const INITIAL_ADMIN_USERNAME = 'admin';

/**
 * Creates the admin at first start: with ADMIN_PASSWORD, or with a random password written to
 * `.admin_bootstrap_password` (0600). An existing admin is never touched.
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
    if ((await this.users.count()) > 0) {
      if (this.config.auth.bootstrapPassword) {
        this.logger.log('An admin exists already; ADMIN_PASSWORD is only used at first start and was ignored');
      }
      return;
    }
    const configured = this.config.auth.bootstrapPassword;
    const password = configured ?? randomPassword(24);
    const user = this.users.create({
      username: INITIAL_ADMIN_USERNAME,
      passwordHash: await this.hasher.hash(password),
      totpSecret: null,
      totpEnabled: false,
      tokenVersion: 0,
    });
    try {
      await this.users.insert(user);
    } catch (error) {
      // Another instance on the same database created it in the meantime: theirs stands.
      if ((await this.users.count()) > 0) return;
      throw error;
    }
    if (configured) {
      this.logger.log(`Created the admin "${INITIAL_ADMIN_USERNAME}" with the password from ADMIN_PASSWORD`);
      return;
    }
    this.dataDirectory.prepare();
    writeFileAtomic(this.dataDirectory.adminBootstrapPasswordFile, `${password}\n`);
    this.logger.warn(
      `Created the admin "${INITIAL_ADMIN_USERNAME}" with a generated password; read it from ` +
        `${this.dataDirectory.adminBootstrapPasswordFile} and change it after the first login`,
    );
  }
}
