import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { DevicesController } from './devices.controller';
import { DevicesService } from './devices.service';

/** Logged-in devices of an account and its official (777000) messages. */
@Module({
  imports: [AccountsModule],
  controllers: [DevicesController],
  providers: [DevicesService],
})
export class DevicesModule {}
