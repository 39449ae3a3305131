import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AccountChatsController } from './account-chats.controller';
import { AccountChatsService } from './account-chats.service';

/** The chats of an account (its Telegram dialogs), for the task editor's chat picker. */
@Module({
  imports: [AccountsModule],
  controllers: [AccountChatsController],
  providers: [AccountChatsService],
})
export class AccountChatsModule {}
