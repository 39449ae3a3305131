import { Inject, Injectable, Logger } from '@nestjs/common';
import { packageVersion } from '@shared/config';
import { fetchLatestRelease, ReleaseFetch, UpdateCheck, UpdateCheckResult } from '@shared/update-check';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { UPDATE_CHECK_FETCH } from './update-check';

export interface VersionInfo {
  version: string;
  package_version: string;
  git_sha: string | null;
  git_branch: string | null;
  build_time: string | null;
  node_version: string;
  update_check_enabled: boolean;
}

const UPDATE_SOURCE = 'the update source';

/** Local version and build data, and the soft remote check against MONITOR_UPDATE_CHECK_URL. */
@Injectable()
export class SystemVersionService {
  private readonly logger = new Logger(SystemVersionService.name);
  private readonly updates: UpdateCheck;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @Inject(UPDATE_CHECK_FETCH) fetchUpdate: ReleaseFetch,
  ) {
    this.updates = new UpdateCheck({
      currentVersion: () => this.info().version,
      enabled: config.updateCheck.enabled,
      disabledReason: 'the update check is turned off (MONITOR_UPDATE_CHECK=false)',
      latestRelease: () => {
        const headers: Record<string, string> = { accept: 'application/vnd.github+json', 'user-agent': `repo-monitor/${this.info().version}` };
        if (config.updateCheck.token) headers['authorization'] = `Bearer ${config.updateCheck.token}`;
        return fetchLatestRelease({
          url: config.updateCheck.url,
          headers,
          sourceName: UPDATE_SOURCE,
          redirectAdvice: 'the token stays with the configured host; set MONITOR_UPDATE_CHECK_URL to the final address',
          fetch: fetchUpdate,
        });
      },
      sourceName: UPDATE_SOURCE,
      onFailure: (reason) => this.logger.warn(`update check failed: ${reason}`),
    });
  }

  info(): VersionInfo {
    const packaged = packageVersion();
    return {
      version: this.config.build.version ?? packaged,
      package_version: packaged,
      git_sha: this.config.build.gitSha ?? null,
      git_branch: this.config.build.gitBranch ?? null,
      build_time: this.config.build.buildTime ?? null,
      node_version: process.version,
      update_check_enabled: this.config.updateCheck.enabled,
    };
  }

  /** Never throws: a failure is `ok: false` with the reason (the check is soft by design). */
  check(force: boolean): Promise<UpdateCheckResult> {
    return this.updates.check(force);
  }
}
