import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { SettingsModule } from '../settings/settings.module';
import { KeepaliveController } from './keepalive.controller';
import { KeepaliveScheduler } from './keepalive-scheduler';
import { KeepaliveService } from './keepalive.service';
import { KeepaliveAccountRow } from './entities/keepalive-account.entity';
import { KeepaliveRunRow } from './entities/keepalive-run.entity';

/** Daily device keep-alive (03:30 in the settings' time zone) and its manual trigger. */
@Module({
  imports: [AccountsModule, SettingsModule, TypeOrmModule.forFeature([KeepaliveAccountRow, KeepaliveRunRow])],
  controllers: [KeepaliveController],
  providers: [KeepaliveService, KeepaliveScheduler],
  exports: [KeepaliveService],
})
export class KeepaliveModule {}
