import { Inject, Injectable, Logger } from '@nestjs/common';
import { packageVersion } from '@shared/config';
import { UpdateCheck, UpdateCheckResult } from '@shared/update-check';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { RELEASE_FEED, ReleaseFeed } from './release-feed';

export interface VersionInfo {
  version: string;
  package_version: string;
  git_sha: string | null;
  git_branch: string | null;
  build_time: string | null;
  runtime: string;
  node_version: string;
}

@Injectable()
export class VersionService {
  private readonly logger = new Logger(VersionService.name);
  private readonly updates: UpdateCheck;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @Inject(RELEASE_FEED) feed: ReleaseFeed,
  ) {
    this.updates = new UpdateCheck({
      currentVersion: () => this.info().version,
      enabled: config.version.updateCheck,
      disabledReason: 'update check disabled (APP_UPDATE_CHECK=0)',
      latestRelease: () => feed.latest(),
      sourceName: 'the release feed',
      onFailure: (reason) => this.logger.warn(`update check failed: ${reason}`),
    });
  }

  info(): VersionInfo {
    const packaged = packageVersion();
    return {
      version: this.config.version.appVersion ?? packaged,
      package_version: packaged,
      git_sha: this.config.version.gitSha ?? null,
      git_branch: this.config.version.gitBranch ?? null,
      build_time: this.config.version.buildTime ?? null,
      runtime: 'node',
      node_version: process.version,
    };
  }

  /** Never throws: every failure becomes `ok: false` with the reason, as the spec wants it soft. */
  checkForUpdate(force: boolean): Promise<UpdateCheckResult> {
    return this.updates.check(force);
  }
}
