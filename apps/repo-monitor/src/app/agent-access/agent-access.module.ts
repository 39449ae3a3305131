import { Global, Module } from '@nestjs/common';
import { AGENT_TOKEN_VERIFIER } from '../admin/agent-token-verifier';
import { AiModule } from '../ai/ai.module';
import { EventsModule } from '../events/events.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SecurityAlertsModule } from '../security-alerts/security-alerts.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { AgentAccessInfoController } from './agent-access-info.controller';
import { AgentReadModel } from './agent-read-model';
import { AgentTokenService } from './agent-token.service';
import { McpController } from './mcp.controller';
import { OAuthController } from './oauth.controller';

/**
 * Agent access: OAuth client_credentials tokens, discovery metadata and the read-only MCP endpoint.
 * Global so the admin guard finds AGENT_TOKEN_VERIFIER and lets agent tokens read /api/v1.
 */
@Global()
@Module({
  imports: [RepositoriesModule, EventsModule, WorkItemsModule, SecurityAlertsModule, AiModule],
  controllers: [OAuthController, McpController, AgentAccessInfoController],
  providers: [AgentTokenService, AgentReadModel, { provide: AGENT_TOKEN_VERIFIER, useExisting: AgentTokenService }],
  exports: [AGENT_TOKEN_VERIFIER, AgentTokenService],
})
export class AgentAccessModule {}
