import { AdminAccountEntity } from '../app/admin/admin-account.entity';
import { AdminSessionEntity } from '../app/admin/admin-session.entity';
import { AuditLogEntity } from '../app/admin/audit-log.entity';
import { NotificationChannelEntity } from '../app/notification-channels/notification-channel.entity';
import { SettingEntity } from '../app/settings/setting.entity';
import { EventEntity } from '../app/events/event.entity';
import { StarredReleaseTrackerEntity } from '../app/github/starred-release-tracker.entity';
import { InstallationEntity } from '../app/installations/installation.entity';
import { OutboxEntryEntity } from '../app/outbox/outbox-entry.entity';
import { RepositoryEntity } from '../app/repositories/repository.entity';
import { SecurityAlertEntity } from '../app/security-alerts/security-alert.entity';
import { WebhookDeliveryEntity } from '../app/deliveries/webhook-delivery.entity';
import { WorkItemEntity } from '../app/work-items/work-item.entity';
import { WorkflowRunEntity } from '../app/workflow-runs/workflow-run.entity';
import { DigestEntity } from '../app/ai/digest.entity';
import { PrReviewEntity } from '../app/ai/pr-review.entity';
import { RecoveredDeliveryEntity } from '../app/redelivery/recovered-delivery.entity';
import { WebhookRejectionEntity } from '../app/deliveries/webhook-rejection.entity';
import { NotificationRuleEntity } from '../app/notification-rules/notification-rule.entity';
import { EventRoutingEntity } from '../app/notification-rules/event-routing.entity';
import { NotificationTemplateEntity } from '../app/notification-templates/notification-template.entity';

/**
 * Every TypeORM entity of repo-monitor. Feature modules own their entity files; this list is what
 * the data source (and the TypeORM CLI) loads.
 */
export const monitorEntities: Array<new () => object> = [
  SettingEntity,
  AdminAccountEntity,
  AdminSessionEntity,
  AuditLogEntity,
  NotificationChannelEntity,
  InstallationEntity,
  RepositoryEntity,
  WebhookDeliveryEntity,
  WorkItemEntity,
  WorkflowRunEntity,
  SecurityAlertEntity,
  EventEntity,
  OutboxEntryEntity,
  StarredReleaseTrackerEntity,
  PrReviewEntity,
  DigestEntity,
  RecoveredDeliveryEntity,
  WebhookRejectionEntity,
  NotificationRuleEntity,
  EventRoutingEntity,
  NotificationTemplateEntity,
];
