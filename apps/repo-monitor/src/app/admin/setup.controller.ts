import { Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { AdminAccountService } from './admin-account.service';
import { SetupRequestDto, SetupResultDto, SetupStatusDto } from './dto/credentials.dto';
import { isLoopbackClient, isLoopbackHost } from './loopback';
import { clientAddress } from './principal';

/** First-run web setup of the admin account (public on purpose, loopback only unless allowed). */
@ApiTags('setup')
@Public()
@Controller('api/v1/setup')
export class SetupController {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly accounts: AdminAccountService,
  ) {}

  @Get('status')
  @ApiOperation({ summary: 'Whether an admin exists and whether this client may run setup' })
  @ApiOkResponse({ type: SetupStatusDto })
  async status(@Req() request: FastifyRequest): Promise<SetupStatusDto> {
    const adminExists = await this.accounts.exists();
    return {
      admin_exists: adminExists,
      setup_allowed: !adminExists && this.clientMaySetup(request),
      remote_setup_allowed: this.config.admin.setupAllowRemote,
    };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create the admin account',
    description:
      'Only from a loopback client with a loopback Host header, unless MONITOR_SETUP_ALLOW_REMOTE=true. 404 once an admin exists.',
  })
  @ApiCreatedResponse({ type: SetupResultDto })
  @ApiForbiddenResponse({ description: 'forbidden: not a loopback client' })
  @ApiNotFoundResponse({ description: 'not_found: an admin account exists' })
  async setup(@Body() body: SetupRequestDto, @Req() request: FastifyRequest): Promise<SetupResultDto> {
    if (await this.accounts.exists()) throw new MonitorError('not_found', 'setup is complete: an admin account exists');
    if (!this.clientMaySetup(request)) {
      throw new MonitorError(
        'forbidden',
        'web setup is only allowed from the machine itself (loopback address and Host); set MONITOR_SETUP_ALLOW_REMOTE=true to allow it remotely',
      );
    }
    await this.accounts.setup(body.username, body.password, clientAddress(request));
    return { username: body.username };
  }

  private clientMaySetup(request: FastifyRequest): boolean {
    if (this.config.admin.setupAllowRemote) return true;
    return isLoopbackClient(request) && isLoopbackHost(request.headers.host);
  }
}
