// e2e and browser specs start the services in the test process, each start hashing its initial
// admin password, and log in again and again: with the production Argon2id cost (64 MiB, about
// 165 ms of CPU per hash or check) that was minutes of CPU per run. Hashes made in these processes
// use the cheapest cost instead (libs/crypto's password-hashing.spec.ts proves the production one).
const { useCheapPasswordHashingInTests } = require('@shared/crypto');

useCheapPasswordHashingInTests();
