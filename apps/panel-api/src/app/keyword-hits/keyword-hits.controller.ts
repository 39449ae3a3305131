import { Controller, Delete, Get, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ValidationFailed } from '../common/panel-error';
import { BEARER_SCHEME } from '../openapi';
import {
  KeywordHitDeleteResultDto,
  KeywordHitFilterDto,
  KeywordHitGroupQueryDto,
  KeywordHitGroupsDto,
  KeywordHitListQueryDto,
  KeywordHitPageDto,
} from './dto/keyword-hits.dto';
import { decodeCursor, HitCursor, hitToDto, KeywordHitFilter, KeywordHitsService } from './keyword-hits.service';

function filterOf(query: KeywordHitFilterDto): KeywordHitFilter {
  const since = query.since !== undefined ? new Date(query.since) : undefined;
  const until = query.until !== undefined ? new Date(query.until) : undefined;
  if (since && until && since.getTime() > until.getTime()) throw new ValidationFailed('since must not be after until');
  return { account: query.account, task: query.task, chat: query.chat, since, until, q: query.q };
}

/** The decoded `cursor` parameter; a 400 when it is not one this API wrote. */
function cursorOf(text: string | undefined): HitCursor | undefined {
  if (text === undefined) return undefined;
  const cursor = decodeCursor(text);
  if (!cursor) throw new ValidationFailed('cursor is not a next_cursor this API returned');
  return cursor;
}

function exportFileName(now: Date): string {
  return `keyword-hits-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}.csv`;
}

@ApiTags('keyword-hits')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiBadRequestResponse({ description: 'Invalid filter (unknown parameter, bad time, since after until, limit out of range)' })
@Controller('api/keyword-hits')
export class KeywordHitsController {
  constructor(private readonly hits: KeywordHitsService) {}

  @Get()
  @ApiOperation({
    summary: 'List keyword hits, newest first; filters account, task, chat, since, until, q; keyset paging with cursor (offset kept)',
    description:
      'Pages follow `next_cursor` (keyset: as fast deep in the list as at the top); `offset` still works but costs more the deeper it goes. ' +
      '`total` is exact up to 10,000 (with `q`: up to 1,000); above that `total_capped` is true and `total` is 10,000 (1,000). ' +
      '`q` is a case-insensitive substring of the text, matched keyword, sender name/username or chat title, in any script; ' +
      'from three characters on it is served by a trigram index. A `q` of one or two characters has no trigram: its total counts the newest ' +
      '20,000 hits of the other filters, and when there are more `total_capped` is true (`total` is then at least that many).',
  })
  @ApiOkResponse({ type: KeywordHitPageDto })
  async list(@Query() query: KeywordHitListQueryDto): Promise<KeywordHitPageDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const cursor = cursorOf(query.cursor);
    if (cursor && offset > 0) throw new ValidationFailed('Use either cursor or offset, not both');
    const page = await this.hits.list(filterOf(query), limit, { offset, cursor });
    return { items: page.items.map(hitToDto), total: page.total, total_capped: page.totalCapped, limit, offset, next_cursor: page.nextCursor };
  }

  @Get('groups')
  @ApiOperation({
    summary: 'Hits grouped by task, account or chat: count and latest hit of each group (same filters), paged by cursor',
    description:
      'Groups come newest latest hit first, `limit` (default 100) per page; `next_cursor` leads to the next page and `total` says how many groups there are. ' +
      'Without a filter or with `account` alone, counts and latest hits come from counters kept with every insert and delete; other filters aggregate the matching hits.',
  })
  @ApiOkResponse({ type: KeywordHitGroupsDto })
  async groups(@Query() query: KeywordHitGroupQueryDto): Promise<KeywordHitGroupsDto> {
    const limit = query.limit ?? 100;
    const page = await this.hits.groups(query.group_by, filterOf(query), limit, cursorOf(query.cursor));
    return {
      group_by: query.group_by,
      groups: page.groups.map((group) => ({
        key: group.key,
        title: query.group_by === 'chat' ? group.latest.chatTitle : null,
        count: group.count,
        latest_hit: hitToDto(group.latest),
      })),
      total: page.total,
      limit,
      next_cursor: page.nextCursor,
    };
  }

  @Get('export')
  @ApiOperation({
    summary: 'CSV export of the hits matching the filters (UTF-8 with byte-order mark), streamed',
    description: 'RFC 4180 quoting; cells beginning with = + - @, tab or CR get a leading apostrophe so a spreadsheet does not run them.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV file' })
  export(@Query() query: KeywordHitFilterDto, @Res({ passthrough: true }) reply: FastifyReply): StreamableFile {
    const stream = this.hits.exportCsv(filterOf(query));
    void reply.header('cache-control', 'no-store');
    return new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${exportFileName(new Date())}"` });
  }

  @Delete()
  @ApiOperation({ summary: 'Delete the hits matching the filters (every hit without filters); answers how many were deleted' })
  @ApiOkResponse({ type: KeywordHitDeleteResultDto })
  async delete(@Query() query: KeywordHitFilterDto): Promise<KeywordHitDeleteResultDto> {
    return { deleted: await this.hits.delete(filterOf(query)) };
  }
}
