import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { ClusterDto } from './cluster.dto';
import { ClusterService } from './cluster.service';

@ApiTags('ops')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/ops')
export class ClusterController {
  constructor(private readonly clusterService: ClusterService) {}

  @Get('cluster')
  @ApiOperation({
    summary: 'The replicas on this database, the leader, and the owner and fencing epoch of every account (one replica owning all on SQLite)',
  })
  @ApiOkResponse({ type: ClusterDto })
  cluster(): Promise<ClusterDto> {
    return this.clusterService.view();
  }
}
