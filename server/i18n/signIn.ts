/** Messages of the sign-in throttle (lib/signInThrottle.ts registers them). */
export const signIn = {
  en: {
    'auth.lockedOne': 'Too many attempts: try again in 1 minute.',
    'auth.lockedMany': 'Too many attempts: try again in {minutes} minutes.',
  },
  it: {
    'auth.lockedOne': 'Troppi tentativi: riprova tra 1 minuto.',
    'auth.lockedMany': 'Troppi tentativi: riprova tra {minutes} minuti.',
  },
  fr: {
    'auth.lockedOne': 'Trop de tentatives : réessayez dans 1 minute.',
    'auth.lockedMany': 'Trop de tentatives : réessayez dans {minutes} minutes.',
  },
};
