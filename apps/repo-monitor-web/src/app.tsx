import { WebApp } from '@shared/web-ui';
import { i18n } from './i18n/setup';
import { routes } from './routes';

export function App() {
  return <WebApp i18n={i18n} routes={routes} />;
}
