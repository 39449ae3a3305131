import { Settings1732250000000 } from './1732250000000-settings';
import { AdminAndChannels1795314686762 } from './1795314686762-admin-and-channels';
import { RepositoryMonitoring1795314726017 } from './1795314726017-repository-monitoring';
import { AiReviewsAndDigests1795315961488 } from './1795315961488-ai-reviews-and-digests';
import { ConsoleState1795400000000 } from './1795400000000-console-state';
import { RecoveredDeliveries1795500000000 } from './1795500000000-recovered-deliveries';
import { WebhookRejections1796100000000 } from './1796100000000-webhook-rejections';
import { NotificationRules1796200000000 } from './1796200000000-notification-rules';
import { MoreChannelKinds1796200000001 } from './1796200000001-more-channel-kinds';
import { NotificationTemplates1796300000000 } from './1796300000000-notification-templates';
import { TemplateParts1796720000000 } from './1796720000000-template-parts';

/** Every PostgreSQL migration, oldest first. Listed explicitly because the app is bundled. */
export const postgresMigrations = [Settings1732250000000, AdminAndChannels1795314686762, RepositoryMonitoring1795314726017, AiReviewsAndDigests1795315961488, ConsoleState1795400000000, RecoveredDeliveries1795500000000, WebhookRejections1796100000000, NotificationRules1796200000000, MoreChannelKinds1796200000001, NotificationTemplates1796300000000, TemplateParts1796720000000];
