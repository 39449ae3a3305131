import { Global, Module } from '@nestjs/common';
import { AGENT_TOKEN_VERIFIER } from '../admin/agent-token-verifier';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
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
  imports: [GithubAppSettingsModule],
  controllers: [OAuthController, McpController, AgentAccessInfoController],
  providers: [AgentTokenService, AgentReadModel, { provide: AGENT_TOKEN_VERIFIER, useExisting: AgentTokenService }],
  exports: [AGENT_TOKEN_VERIFIER, AgentTokenService],
})
export class AgentAccessModule {}
