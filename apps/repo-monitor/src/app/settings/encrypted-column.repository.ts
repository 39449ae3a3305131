import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { rawSql, sql } from '../../database/sql';
import { EncryptedColumn } from './encrypted-columns';

/** One stored envelope of an encrypted column and the id of its row. */
export interface StoredEnvelope {
  id: string | number;
  envelope: string;
}

/**
 * The envelopes of the encrypted columns (ENCRYPTED_COLUMNS) across their owners' tables, for key
 * rotation only: it reads and rewrites them by the registry's table and column names (identifiers
 * chosen by the code, never input), inside the caller's transaction. The features that own the
 * tables keep sealing and opening their own secrets.
 */
@Injectable()
export class EncryptedColumnRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Every envelope stored in the column (rows where it is not null). */
  envelopes(manager: EntityManager, column: EncryptedColumn): Promise<StoredEnvelope[]> {
    return this.database.rows<StoredEnvelope>(
      sql`SELECT ${identifier(column.idColumn)} AS "id", ${identifier(column.column)} AS "envelope" FROM ${identifier(column.table)} WHERE ${identifier(column.column)} IS NOT NULL`,
      manager,
    );
  }

  /** Replaces the envelope of one row. */
  async replace(manager: EntityManager, column: EncryptedColumn, id: string | number, envelope: string): Promise<void> {
    await this.database.affected(manager, sql`UPDATE ${identifier(column.table)} SET ${identifier(column.column)} = ${envelope} WHERE ${identifier(column.idColumn)} = ${id}`);
  }

  /** How many rows hold an envelope in the column. */
  async count(column: EncryptedColumn): Promise<number> {
    const [{ total }] = await this.database.rows<{ total: number | string }>(
      sql`SELECT COUNT(*) AS "total" FROM ${identifier(column.table)} WHERE ${identifier(column.column)} IS NOT NULL`,
    );
    return Number(total);
  }
}

function identifier(name: string) {
  return rawSql(`"${name}"`);
}
