// The page frame lives in libs/web-ui (repo-monitor's console uses it too); pages may import it
// from there or from here.
export { Page } from '@shared/web-ui';
