import { Inject, Injectable } from '@nestjs/common';
import { EnvelopeCipher, EnvelopeError, parseEnvelope } from '@shared/crypto';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';

/**
 * Seals and opens the secrets kept in the database under MONITOR_ENCRYPTION_KEY (AES-256-GCM
 * envelopes), falling back to MONITOR_ENCRYPTION_KEY_PREVIOUS when reading. Without a key no secret
 * can be stored: callers get `encryption_unavailable` (503).
 */
@Injectable()
export class SecretCipher {
  private readonly cipher?: EnvelopeCipher;

  constructor(@Inject(MONITOR_CONFIG) config: MonitorConfig) {
    if (config.encryption.key) this.cipher = new EnvelopeCipher(config.encryption.key, config.encryption.previousKey);
  }

  get available(): boolean {
    return this.cipher !== undefined;
  }

  get currentKeyId(): string | undefined {
    return this.cipher?.currentKeyId;
  }

  seal(plaintext: string, associatedData: string): string {
    return this.require().encrypt(plaintext, associatedData);
  }

  open(envelope: string, associatedData: string): string {
    try {
      return this.require().decryptString(envelope, associatedData);
    } catch (error) {
      if (error instanceof EnvelopeError) {
        throw new MonitorError('encryption_unavailable', `a stored secret cannot be decrypted with the configured master key (${error.message})`);
      }
      throw error;
    }
  }

  /** True when the envelope was sealed under another key than the current one. */
  needsRotation(envelope: string): boolean {
    return this.require().needsRotation(envelope);
  }

  /** Opens with whichever configured key fits and seals again under the current key. */
  reseal(envelope: string, associatedData: string): string {
    const cipher = this.require();
    try {
      return cipher.reencrypt(envelope, associatedData);
    } catch (error) {
      if (error instanceof EnvelopeError) {
        throw new Error(
          `a stored secret (${associatedData}) was sealed with key id ${keyIdOrUnknown(envelope)}, which neither ` +
            'MONITOR_ENCRYPTION_KEY nor MONITOR_ENCRYPTION_KEY_PREVIOUS opens; set the old key as MONITOR_ENCRYPTION_KEY_PREVIOUS',
        );
      }
      throw error;
    }
  }

  private require(): EnvelopeCipher {
    if (!this.cipher) {
      throw new MonitorError('encryption_unavailable', 'MONITOR_ENCRYPTION_KEY is not set, so secrets cannot be stored or read');
    }
    return this.cipher;
  }
}

function keyIdOrUnknown(envelope: string): string {
  try {
    return parseEnvelope(envelope).keyId;
  } catch {
    return 'unknown';
  }
}
