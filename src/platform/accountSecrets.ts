/**
 * The two account credentials, in SecretStorage only (never settings, logs or messages). This module is
 * their one owner: nothing else reads, writes or watches them (test/unit/layering.test.ts).
 * - the identity-provider JWT for usage analytics. It is the SAME secret the tool runner uses in JWT
 *   mode (JWT_SECRET_KEY from src/platform/secretKeys.ts), so the user stores one token, not two copies;
 * - the hosting API username and password/token, stored together as one JSON value.
 */
import type * as vscode from 'vscode';
import { parseStoredHostingCredentials, serializeHostingCredentials } from '../core/account/storedCredentials';
import type { HostingCredentials } from '../core/account/hostingClient';
import { HOSTING_CREDENTIALS_KEY, JWT_SECRET_KEY } from './secretKeys';

export class AccountSecrets {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** Fires when the identity token is stored or deleted (in this window or another). */
  onDidChangeJwt(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === JWT_SECRET_KEY) listener();
    });
  }

  getJwt(): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(JWT_SECRET_KEY));
  }

  setJwt(jwt: string): Promise<void> {
    return Promise.resolve(this.secrets.store(JWT_SECRET_KEY, jwt));
  }

  clearJwt(): Promise<void> {
    return Promise.resolve(this.secrets.delete(JWT_SECRET_KEY));
  }

  async getHostingCredentials(): Promise<HostingCredentials | undefined> {
    return parseStoredHostingCredentials(await this.secrets.get(HOSTING_CREDENTIALS_KEY));
  }

  setHostingCredentials(c: HostingCredentials): Promise<void> {
    return Promise.resolve(this.secrets.store(HOSTING_CREDENTIALS_KEY, serializeHostingCredentials(c)));
  }

  clearHostingCredentials(): Promise<void> {
    return Promise.resolve(this.secrets.delete(HOSTING_CREDENTIALS_KEY));
  }
}
