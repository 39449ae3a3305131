/** What a verified read-only agent token grants. */
export interface AgentIdentity {
  clientId: string;
  scopes: string[];
}

/**
 * Extension point for agent access (issue: OAuth client_credentials). A @Global module that
 * exports a provider under AGENT_TOKEN_VERIFIER makes the auth guard accept `Authorization: Bearer`
 * tokens on GET routes; writes with such a token are 403. With no provider bound, bearer tokens
 * never authenticate.
 */
export interface AgentTokenVerifier {
  /** The identity the token carries, or null when it is not a valid, unexpired agent token issued by `issuer`. */
  verify(token: string, issuer: string): Promise<AgentIdentity | null>;
}

export const AGENT_TOKEN_VERIFIER = Symbol('AGENT_TOKEN_VERIFIER');
