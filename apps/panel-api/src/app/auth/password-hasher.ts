import { Injectable } from '@nestjs/common';
import { hashPassword, randomToken, verifyPassword } from '@shared/crypto';

/** Admin passwords with the shared Argon2id hashing of @shared/crypto. */
@Injectable()
export class PasswordHasher {
  private decoy?: Promise<string>;

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  /** False for a wrong password and for a malformed hash; never throws. */
  verify(hash: string, password: string): Promise<boolean> {
    return verifyPassword(hash, password);
  }

  /** Spends the time of a real check for an unknown user, so the answer time does not tell which names exist. */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash(randomToken());
    await this.verify(await this.decoy, password);
    return false;
  }
}
