// One jest run over every package; TypeScript through SWC (types are checked by `npm run typecheck`).
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }],
  },
  // Sources import with NodeNext's `.js` specifiers.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^@docextract/sdk$': '<rootDir>/sdk/src/index.ts' },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/server/test/**/*.test.ts', '<rootDir>/sdk/test/**/*.test.ts'],
  testTimeout: 30000,
  // Two workers on the 2-core machines this runs on (jest's default is cores - 1): the suites mostly wait on servers,
  // reader processes and PostgreSQL, and the whole suite takes half the time (about 15 min instead of 29).
  maxWorkers: 2,
  globalSetup: '<rootDir>/server/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/server/test/support/global-teardown.mjs',
};
