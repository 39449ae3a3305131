import { fileURLToPath } from 'node:url';
// The web apps' one build set-up; tools/ is not an Nx project, so it has no alias.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { webAppConfig } from '../../tools/vite/web-app-config.mjs';

// Built to dist/apps/repo-monitor-web; repo-monitor's build copies it to dist/apps/repo-monitor/web.
export default webAppConfig({ appRoot: fileURLToPath(new URL('.', import.meta.url)), name: 'repo-monitor-web', devApiPort: 8080 });
