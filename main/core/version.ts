/** Kept in step with package.json by a test. */
export const APP_VERSION = '0.1.0';
