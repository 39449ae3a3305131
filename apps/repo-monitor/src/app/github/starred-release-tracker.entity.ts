import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `starred_list`: the user's starred list (its ETag); `releases`: one starred repository's latest release. */
export type TrackerKind = 'starred_list' | 'releases';

/** Conditional-request state for starred-release tracking, so unchanged polls cost no rate limit. */
@Entity('starred_release_trackers')
export class StarredReleaseTrackerEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 64 }) username!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: TrackerKind;
  @Column({ name: 'repository_full_name', type: 'varchar', length: 255 }) repositoryFullName!: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) etag!: string | null;
  @Column({ name: 'last_release_id', type: 'bigint', nullable: true }) lastReleaseId!: number | null;
  @Column({ name: 'last_release_tag', type: 'varchar', length: 255, nullable: true }) lastReleaseTag!: string | null;
  @Column({ name: 'last_checked_at', type: Date, nullable: true }) lastCheckedAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
