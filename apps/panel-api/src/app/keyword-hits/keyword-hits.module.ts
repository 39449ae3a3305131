import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeywordHit } from './entities/keyword-hit.entity';
import { KeywordHitsController } from './keyword-hits.controller';
import { KeywordHitsFtsIndexer } from './keyword-hits-fts-indexer';
import { KeywordHitsService } from './keyword-hits.service';

/** The keyword hits table and its API; listeners record hits through KeywordHitsService. */
@Module({
  imports: [TypeOrmModule.forFeature([KeywordHit])],
  controllers: [KeywordHitsController],
  providers: [KeywordHitsService, KeywordHitsFtsIndexer],
  exports: [KeywordHitsService, KeywordHitsFtsIndexer],
})
export class KeywordHitsModule {}
