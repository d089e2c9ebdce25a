import type { Kind, Origin, ErrorCode } from '../core/vocabulary.js';
import type { Memory, Provenance, Scope } from '../core/types.js';

/** The entry point a write arrived through. Origin is decided from this, never from content. */
export type ChannelKind = 'mcp' | 'hook' | 'window' | 'import';

export interface Requester {
  /** Audit actor, e.g. `mcp:<connection id>`, `window`, `import`. */
  actor: string;
  channel: ChannelKind;
  /** Hook captures only: the producing tool's name as the host reported it. */
  toolName?: string;
  /** Host name from MCP `initialize`, for grants and provenance. */
  host?: string;
  /** Project ids this requester belongs to (from roots or working directory). */
  projects: string[];
  /** A person acting directly (window, command line): every scope is theirs. */
  person: boolean;
}

/** What a caller submits; every field is untrusted until the validate stage has run. */
export interface CaptureInput {
  content: string;
  kind?: Kind;
  scope?: Scope;
  tags?: string[];
  provenance?: Provenance;
  memory_id?: string;
  expected_revision?: number;
  /** A caller may lower trust (say its text came from the web), never raise it. */
  source_origin?: Origin;
  /** Imports only: when the memory was first made. */
  created_at?: string;
}

export interface DraftFields {
  content: string;
  kind: Kind;
  scope: Scope;
  tags: string[];
  provenance: Provenance;
}

export interface FieldFinding {
  field: string;
  rule: string;
  start: number;
  end: number;
  preview: string;
}

export interface SimilarMemory {
  id: string;
  score: number;
}

export type DraftWarning = 'near_duplicate' | 'instruction_like' | 'untrusted_origin' | 'origin_claim_ignored' | 'origin_lowered';

export interface Blocker {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/** Stages 1–6 applied to an input: what a write would do, and why it could not. */
export interface Draft {
  action: 'create' | 'update';
  fields: DraftFields;
  origin: Origin;
  content_hash: string;
  memory_id: string | null;
  expected_revision: number | null;
  current: Memory | null;
  created_at: number | null;
  findings: FieldFinding[];
  duplicate_of: string | null;
  similar: SimilarMemory[];
  warnings: DraftWarning[];
  /** The first stage that refuses this write, or null when it may proceed to consent. */
  blocker: Blocker | null;
}
