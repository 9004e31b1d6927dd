import { connectSession } from '../api/http';
import { endExpiredSession, readToken } from './session';

/** At start-up: the HTTP client sends this session's token, and a 401 on a signed-in call ends the session. */
export function installSession() {
  connectSession({ token: readToken, onExpired: endExpiredSession });
}
