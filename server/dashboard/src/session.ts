// The dashboard session: a bearer token held for this tab only (sessionStorage); no API key is ever stored.
const KEY = 'docextract.session';

export const session = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (token: string): void => sessionStorage.setItem(KEY, token),
  clear: (): void => sessionStorage.removeItem(KEY),
};
