import type { Kind, Origin } from './vocabulary.js';

/** `user` or `project:<id>` (DESIGN §3). */
export type Scope = string;

/** Where a memory came from, as far as the channel knows it. Flat JSON values only. */
export type Provenance = Record<string, string | number | boolean | null>;

export interface Memory {
  id: string;
  scope: Scope;
  kind: Kind;
  content: string;
  tags: string[];
  provenance: Provenance;
  origin: Origin;
  revision: number;
  content_hash: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type RevisionAction = 'create' | 'update' | 'forget' | 'restore';

export interface MemoryRevision {
  memory_id: string;
  revision: number;
  action: RevisionAction;
  scope: Scope;
  kind: Kind;
  content: string;
  tags: string[];
  provenance: Provenance;
  origin: Origin;
  actor: string;
  consent: string | null;
  created_at: string;
}

export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  outcome: 'ok' | 'refused' | 'error' | 'pending';
  reason: string | null;
  detail: Record<string, unknown>;
}
