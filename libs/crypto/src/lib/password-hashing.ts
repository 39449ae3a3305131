import * as argon2 from 'argon2';

type Cost = Pick<argon2.HashOptions, 'memoryCost' | 'timeCost' | 'parallelism'>;

/** Argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes): what every hash is made with. */
const PRODUCTION_COST: Cost = {};
/**
 * The cheapest Argon2id the library allows, for test processes only: the e2e and browser suites
 * start a service (which hashes its initial admin password) and log in some thousand times, and
 * at 64 MiB each hash or check is about 165 ms of CPU. The same practice as Rails' `min_cost` and
 * Django's fast test hashers. A hash carries its own parameters, so checking works either way.
 */
const TEST_COST: Cost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

let cost = PRODUCTION_COST;

/**
 * Makes later hashes in this process use the cheapest parameters. Only test setup calls it (it is
 * a function, not a setting, so no configuration can weaken the hashing of a running service).
 */
export function useCheapPasswordHashingInTests(): void {
  cost = TEST_COST;
}

/** Argon2id with the library's defaults (64 MiB, 3 passes, a fresh salt per hash). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { ...cost, type: argon2.argon2id });
}

/** Whether `password` matches `hash`; false, never an exception, for a malformed or foreign hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
