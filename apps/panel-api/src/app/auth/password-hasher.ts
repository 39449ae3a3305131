import { Injectable } from '@nestjs/common';
import { randomToken } from '@shared/crypto';
import * as argon2 from 'argon2';

/** Argon2id with the library's defaults (64 MiB, 3 passes, salted per hash). */
@Injectable()
export class PasswordHasher {
  private decoy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of a real check for an unknown user, so the answer time does not tell which names exist. */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash(randomToken());
    await this.verify(await this.decoy, password);
    return false;
  }
}
