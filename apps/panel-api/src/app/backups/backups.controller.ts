import { ApiErrorResponses } from '@shared/http-service';
import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ClusterService } from '../cluster/cluster.service';
import { ANSWERED_BY_HEADER, errorOfAnswer, FORWARDED_BY_HEADER, forwardToReplica, openOnReplica } from '../cluster/owner-forwarding';
import { BEARER_SCHEME } from '../openapi';
import { AutoBackupScheduler } from './auto-backup.scheduler';
import { BackupService } from './backup.service';
import {
  BackupStatusDto,
  ExportQueryDto,
  LocalBackupNameDto,
  RemoteBackupListDto,
  RemoteDownloadQueryDto,
  WebDavTestResultDto,
  WebDavUploadResultDto,
} from './dto/backup.dto';
import { isSafeBackupName, RemoteBackupError, RemoteBackupStore } from './remote-backup-store';
import { PanelError, ValidationFailed } from '../common/panel-error';

function remoteFailure(error: unknown): Error {
  if (error instanceof RemoteBackupError) {
    return new PanelError(error.status === 404 ? 'backup_not_found' : 'webdav_failed', error.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}

@ApiTags('backups')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/ops/backup')
export class BackupsController {
  constructor(
    private readonly backups: BackupService,
    private readonly scheduler: AutoBackupScheduler,
    private readonly cluster: ClusterService,
  ) {}

  @Get('status')
  @ApiOperation({ summary: 'Backup state: WebDAV and automatic backup settings, recent local automatic backups, sizes of key paths' })
  @ApiOkResponse({ type: BackupStatusDto })
  async status(): Promise<BackupStatusDto> {
    return this.backups.status(this.scheduler.nextRun());
  }

  @Post('export')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Full backup (tar.gz): uploaded to the saved WebDAV target, otherwise a download',
    description:
      'The archive holds a consistent db.sqlite snapshot (SQLite only; a manifest says when the database is PostgreSQL and not included), ' +
      'sessions/, .signer/ and the settings files; never .admin_bootstrap_password, .scheduler.lock or the JWT secret. ' +
      'Restore: stop the service, extract over the data directory, start, log in with the original account.',
  })
  @ApiProduces('application/gzip', 'application/json')
  @ApiOkResponse({ type: WebDavUploadResultDto, description: 'JSON when uploaded to WebDAV; the archive itself (application/gzip) when downloaded' })
  @ApiConflictResponse({ description: 'Another backup is being created, or target=webdav without a saved WebDAV target' })
  @ApiBadRequestResponse({ description: 'Unknown target' })
  @ApiErrorResponses({ 404: 'the WebDAV server answered 404 (the folder is missing)', 502: 'the WebDAV server refused or failed the request' })
  async export(@Query() query: ExportQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile | WebDavUploadResultDto> {
    let outcome;
    try {
      outcome = await this.backups.export(query.target ?? 'auto');
    } catch (error) {
      throw remoteFailure(error);
    }
    if (outcome.kind === 'download') {
      void reply.header('cache-control', 'no-store');
      return new StreamableFile(outcome.stream, { type: 'application/gzip', disposition: `attachment; filename="${outcome.fileName}"` });
    }
    return {
      destination: 'webdav',
      file_name: outcome.fileName,
      remote_path: outcome.upload.remote_path,
      url: outcome.upload.url,
      size_bytes: outcome.sizeBytes,
      database: outcome.database,
    };
  }

  @Get('local/:name')
  @ApiOperation({
    summary: 'Download a backup kept on the server (an automatic backup without a WebDAV target, or whose upload failed)',
    description: 'Replicas: answered by the replica whose data directory holds it, whichever replica is asked.',
  })
  @ApiProduces('application/gzip')
  @ApiOkResponse({ description: 'The archive' })
  @ApiErrorResponses({ 404: 'no such local backup, or the replica that held it is no longer running', 503: 'the replica that holds it did not answer' })
  @ApiBadRequestResponse({ description: 'Unsafe name' })
  async downloadLocal(@Param() params: LocalBackupNameDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    const location = await this.backups.locateLocalBackup(params.name, this.forwardedHere(request));
    void reply.header('cache-control', 'no-store');
    const disposition = `attachment; filename="${params.name}"`;
    if (location.kind === 'here') return new StreamableFile(createReadStream(location.path), { type: 'application/gzip', length: location.size, disposition });
    if (location.kind !== 'replica') throw this.notHere(params.name, location);
    const response = await openOnReplica(this.cluster, location.replica, request, `the backup ${params.name}`, { boundBody: false });
    if (response.status !== 200 || !response.body) {
      throw errorOfAnswer({ status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()), replicaId: location.replica.id }, `the backup ${params.name}`);
    }
    void reply.header(ANSWERED_BY_HEADER, location.replica.id);
    const length = Number(response.headers.get('content-length'));
    return new StreamableFile(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), { type: 'application/gzip', length: Number.isFinite(length) && length > 0 ? length : undefined, disposition });
  }

  @Delete('local/:name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a backup kept on the server',
    description: 'Replicas: done by the replica whose data directory holds it; one that is no longer running is only taken off the list (the archive went with it).',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses({ 404: 'no such local backup', 503: 'the replica that holds it did not answer' })
  @ApiBadRequestResponse({ description: 'Unsafe name' })
  async deleteLocal(@Param() params: LocalBackupNameDto, @Req() request: FastifyRequest): Promise<void> {
    const location = await this.backups.locateLocalBackup(params.name, this.forwardedHere(request));
    if (location.kind === 'here') {
      await this.backups.removeLocalBackup(params.name);
      return;
    }
    if (location.kind === 'gone') {
      await this.backups.forgetGoneLocalBackup(params.name, location.replicaId);
      return;
    }
    if (location.kind === 'missing') throw this.notHere(params.name, location);
    const answer = await forwardToReplica(this.cluster, location.replica, request, `the backup ${params.name}`);
    if (answer.status !== 204) throw errorOfAnswer(answer, `the backup ${params.name}`);
  }

  @Post('webdav/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Test the saved WebDAV target (reachability, credentials, folder)' })
  @ApiOkResponse({ type: WebDavTestResultDto, description: 'ok=false with the reason when the server cannot be used' })
  @ApiBadRequestResponse({ description: 'No WebDAV target is saved' })
  async testWebDav(): Promise<WebDavTestResultDto> {
    const { store, folder } = this.requireStore();
    try {
      const { folderExists } = await store.check();
      return { ok: true, folder, folder_exists: folderExists };
    } catch (error) {
      return { ok: false, folder, error: error instanceof Error ? error.message : String(error) };
    }
  }

  @Get('webdav/files')
  @ApiOperation({ summary: 'List the .tar.gz backups in the saved WebDAV folder (PROPFIND), newest first' })
  @ApiOkResponse({ type: RemoteBackupListDto })
  @ApiErrorResponses({ 404: 'the WebDAV folder does not exist', 502: 'the WebDAV server refused or failed the request' })
  @ApiBadRequestResponse({ description: 'No WebDAV target is saved' })
  async listWebDav(): Promise<RemoteBackupListDto> {
    const { store, folder } = this.requireStore();
    try {
      return { folder, files: await store.list() };
    } catch (error) {
      throw remoteFailure(error);
    }
  }

  @Get('webdav/download')
  @ApiOperation({ summary: 'Stream one .tar.gz from the saved WebDAV folder; only a plain safe file name is accepted' })
  @ApiProduces('application/gzip')
  @ApiOkResponse({ description: 'The archive' })
  @ApiErrorResponses({ 404: 'no such file in the WebDAV folder', 502: 'the WebDAV server refused or failed the request' })
  @ApiBadRequestResponse({ description: 'Unsafe name, or no WebDAV target is saved' })
  async downloadWebDav(@Query() query: RemoteDownloadQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    if (!isSafeBackupName(query.name)) throw new ValidationFailed('name must be a plain file name ending in .tar.gz');
    const { store } = this.requireStore();
    let download;
    try {
      download = await store.download(query.name);
    } catch (error) {
      throw remoteFailure(error);
    }
    void reply.header('cache-control', 'no-store');
    return new StreamableFile(download.stream, {
      type: 'application/gzip',
      length: download.size,
      disposition: `attachment; filename="${query.name}"`,
    });
  }

  /** A request another replica sent here for an archive it located here: answered from this data directory only. */
  private forwardedHere(request: FastifyRequest): boolean {
    return this.cluster.active && typeof request.headers[FORWARDED_BY_HEADER] === 'string';
  }

  private notHere(name: string, location: { kind: 'gone'; replicaId: string } | { kind: 'missing' }): PanelError {
    if (location.kind === 'gone') {
      return new PanelError('backup_not_found', `The backup ${name} was kept by the replica ${location.replicaId}, which is no longer running: the archive went with its data directory. Delete it from the list.`);
    }
    return new PanelError('backup_not_found', `There is no backup named ${name} on the server`);
  }

  private requireStore(): { store: RemoteBackupStore; folder: string } {
    const target = this.backups.webdavTarget();
    const store = this.backups.remoteStore();
    if (!target || !store) throw new PanelError('webdav_not_configured', 'No WebDAV target is saved; save webdav_url (and credentials) in the settings first');
    return { store, folder: target.folder };
  }
}
