import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { assertAccountName } from '../accounts/account-name';
import { BEARER_SCHEME } from '../openapi';
import { DevicesService } from './devices.service';
import { DeviceListDto, OfficialMessageListDto, OfficialMessagesQueryDto } from './dto/device.dto';
import { ValidationFailed } from '../common/panel-error';

const AUTH_HASH_PATTERN = /^-?\d{1,20}$/;

@ApiTags('devices')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiNotFoundResponse({ description: 'No such account' })
@ApiConflictResponse({ description: 'The account needs_relogin (its session is invalid or missing)' })
@ApiBadGatewayResponse({ description: 'Telegram could not be reached' })
@ApiGatewayTimeoutResponse({ description: 'Telegram did not answer in time' })
@ApiParam({ name: 'account_name', example: 'main' })
@Controller('api/accounts/:account_name')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Get('devices')
  @ApiOperation({ summary: 'Devices (authorizations) logged in to the account' })
  @ApiOkResponse({ type: DeviceListDto })
  @ApiBadRequestResponse({ description: 'The name is not path-safe' })
  async list(@Param('account_name') name: string): Promise<DeviceListDto> {
    const accountName = assertAccountName(name);
    return { account_name: accountName, devices: await this.devices.list(accountName) };
  }

  @Delete('devices/:auth_hash')
  @HttpCode(204)
  @ApiOperation({ summary: 'Terminate a device session; the current session is refused with 409. Confirm before calling.' })
  @ApiParam({ name: 'auth_hash', example: '-5823094582341' })
  @ApiNoContentResponse({ description: 'Terminated' })
  @ApiBadRequestResponse({ description: 'Invalid account name or auth_hash' })
  async terminate(@Param('account_name') name: string, @Param('auth_hash') authHash: string): Promise<void> {
    const accountName = assertAccountName(name);
    if (!AUTH_HASH_PATTERN.test(authHash)) throw new ValidationFailed('auth_hash must be a decimal 64-bit integer');
    await this.devices.terminate(accountName, BigInt(authHash).toString());
  }

  @Get('official-messages')
  @ApiOperation({ summary: 'Messages from Telegram (user 777000), newest first; read-only: sends nothing, marks nothing read' })
  @ApiOkResponse({ type: OfficialMessageListDto })
  @ApiBadRequestResponse({ description: 'Invalid account name or limit outside 1..100' })
  async officialMessages(@Param('account_name') name: string, @Query() query: OfficialMessagesQueryDto): Promise<OfficialMessageListDto> {
    const accountName = assertAccountName(name);
    return { account_name: accountName, messages: await this.devices.officialMessages(accountName, query.limit ?? 20) };
  }
}
