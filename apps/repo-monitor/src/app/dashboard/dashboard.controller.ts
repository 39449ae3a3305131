import { Controller, Get } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { COOKIE_SCHEME } from '../openapi';
import { DashboardService } from './dashboard.service';
import { DashboardDto } from './dto/dashboard.dto';

@ApiTags('dashboard')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiOperation({
    summary: 'The console dashboard: onboarding checklist, tiles, events and notifications per day over 14 days, outbox health, recent activity',
    description: 'Admin session only: it shows notification deliveries, which agent tokens may not read.',
  })
  @ApiOkResponse({ type: DashboardDto })
  get(): Promise<DashboardDto> {
    return this.dashboard.dashboard();
  }
}
