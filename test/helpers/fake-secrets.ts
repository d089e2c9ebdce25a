import { githubChecksum } from '../../main/pipeline/secrets/rules.js';

/**
 * Credential-shaped test values, assembled at run time so the repository never holds a literal
 * that looks live. They are valid in format (checksums included) so the scanner must catch them.
 */
export function fakeGithubToken(seed = 5): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let body = '';
  for (let i = 0; i < 30; i++) body += alphabet[(i * 17 + seed * 31 + 7) % alphabet.length];
  return ['gh', 'p_'].join('') + body + githubChecksum(body);
}

export function fakeAwsKeyId(): string {
  return ['AK', 'IA'].join('') + 'QZ7W4XMPRTKLBN2V';
}
