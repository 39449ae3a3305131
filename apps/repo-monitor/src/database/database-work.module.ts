import { Global, Module } from '@nestjs/common';
import { DatabaseWork } from './database-work';

@Global()
@Module({ providers: [DatabaseWork], exports: [DatabaseWork] })
export class DatabaseWorkModule {}
