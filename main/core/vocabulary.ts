/** The closed vocabularies of DESIGN §3, §5 and §7. Everything else in the code refers to these. */

export const KINDS = ['fact', 'decision', 'preference', 'procedure', 'lesson', 'note'] as const;
export type Kind = (typeof KINDS)[number];

export const ORIGINS = ['user', 'agent', 'local_action', 'network', 'import', 'unknown'] as const;
export type Origin = (typeof ORIGINS)[number];

/** Origins a standing grant may ever cover (DESIGN §5). An allowlist: anything new is excluded. */
export const GRANTABLE_ORIGINS: readonly Origin[] = ['user', 'agent', 'local_action'];

/** Origins whose text is untrusted data: fenced on replay, always need a person's decision. */
export const UNTRUSTED_ORIGINS: readonly Origin[] = ['network', 'unknown'];

/**
 * Trust rank, used only so that a caller can lower an origin and never raise it.
 * Equal ranks are not interchangeable: a claim is accepted only when strictly lower.
 */
export const ORIGIN_TRUST: Readonly<Record<Origin, number>> = {
  user: 3,
  agent: 2,
  local_action: 2,
  import: 2,
  network: 1,
  unknown: 0,
};

export const ERROR_CODES = [
  'validation_error',
  'secret_detected',
  'scope_denied',
  'not_found',
  'revision_conflict',
  'duplicate',
  'consent_declined',
  'consent_pending',
  'consent_unavailable',
  'consent_expired',
  'offer_closed',
  'app_unavailable',
  'already_running',
  'version_mismatch',
  'auth_failed',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const LIMITS = {
  contentMax: 16_384,
  tagsMax: 32,
  tagLengthMax: 64,
  provenanceMaxBytes: 8_192,
  queryMax: 1_000,
  pageMax: 200,
} as const;
