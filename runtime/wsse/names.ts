/** The OASIS WSS 1.0 names a UsernameToken is written and read with. */

const USERNAME_TOKEN_PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
export const PASSWORD_TEXT_URI = `${USERNAME_TOKEN_PROFILE}#PasswordText`;
export const PASSWORD_DIGEST_URI = `${USERNAME_TOKEN_PROFILE}#PasswordDigest`;
export const BASE64_BINARY_URI =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
