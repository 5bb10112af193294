/**
 * SecretStorage keys shared by more than one feature. They live here, not in a feature folder, so
 * features never import each other (src/mcp and src/account both use the identity token).
 */

/**
 * The identity-provider JWT. ONE secret for both the tool runner's JWT mode (src/mcp) and usage
 * analytics (src/account), so the user stores one token, not two copies.
 */
export const JWT_SECRET_KEY = 'aiGateway.mcp.jwt';

/** The hosting API username and password/token, stored together as one JSON value (src/account). */
export const HOSTING_CREDENTIALS_KEY = 'aiGateway.hosting.credentials';
