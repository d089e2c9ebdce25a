/**
 * The typed API the window uses. One interface, three places: the service implements it
 * (service-api.ts), the Electron preload exposes it through contextBridge, and the browser build
 * reaches it over loopback HTTP (http-client in renderer/). This file imports types only, so the
 * renderer can import it without pulling in Node code.
 */
import type { ErrorCode, Kind, Origin } from '../core/vocabulary.js';
import type { AuditEntry, Memory, MemoryRevision, Provenance } from '../core/types.js';
import type { DraftWarning } from '../pipeline/types.js';

export type { AuditEntry, Memory, MemoryRevision, Provenance, Kind, Origin, ErrorCode, DraftWarning };

export type OfferState = 'pending' | 'executed' | 'declined' | 'expired' | 'failed';
export type OfferTool = 'memory_confirm_capture' | 'memory_forget';
export type DecisionChannel = 'form' | 'window';

export interface OfferView {
  id: string;
  state: OfferState;
  tool: OfferTool;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_via: DecisionChannel | null;
  requester: { actor: string; host: string | null; host_version: string | null; projects: string[] };
  draft: {
    action: 'create' | 'update' | 'forget';
    content: string;
    kind: Kind;
    scope: string;
    tags: string[];
    origin: Origin;
    provenance: Provenance;
    warnings: DraftWarning[];
    similar: Array<{ id: string; score: number; content: string }>;
    /** The memory an update or forget applies to, as it was when the offer was made. */
    current: Memory | null;
  };
  /** The memory written, once executed. */
  memory_id: string | null;
  /** Why it failed at execution (e.g. revision_conflict), when state is failed. */
  error_code: ErrorCode | null;
}

export interface MemoryQuery {
  query: string;
  scopes?: string[];
  kinds?: Kind[];
  origins?: Origin[];
  tags?: string[];
  hosts?: string[];
  state?: 'live' | 'deleted';
  sort?: 'relevance' | 'created' | 'updated';
  limit?: number;
  cursor?: string;
}

export interface MemoryPage {
  items: Array<Memory & { score?: number }>;
  next_cursor: string | null;
  total: number;
}

export interface Facets {
  scopes: string[];
  tags: string[];
  hosts: string[];
  counts: { live: number; deleted: number; pending: number };
}

export interface ConnectionView {
  id: string;
  host: string | null;
  host_version: string | null;
  projects: string[];
  pid: number | null;
  cwd: string | null;
  first_seen: string;
  last_seen: string;
  live: boolean;
}

export interface GrantView {
  id: string;
  host: string;
  scope: string;
  origins: Origin[];
  kinds: Kind[];
  /** true: covers only calls where the host attests it displayed the draft (`confirm: true`). */
  requires_attestation: boolean;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface GrantInput {
  host: string;
  scope: string;
  origins: Origin[];
  kinds: Kind[];
  requires_attestation: boolean;
  expires_at: string | null;
}

export type HostId = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode';

export interface HostConfigView {
  host: HostId;
  label: string;
  config_path: string;
  /** The exact JSON (or command) to add, as text a person can copy. */
  snippet: string;
  installed: boolean;
}

export interface SettingsView {
  data_folder: string;
  version: string;
  schema_version: number;
  memory_count: number;
  capture_paused: boolean;
}

export interface DraftEdits {
  content?: string;
  kind?: Kind;
  scope?: string;
  tags?: string[];
}

export type ApiEvent =
  | { type: 'offer.created'; id: string }
  | { type: 'offer.decided'; id: string; state: OfferState }
  | { type: 'memory.changed'; id: string }
  | { type: 'connection.changed'; id: string }
  | { type: 'grant.changed'; id: string };

/** Rejections carry this shape (DESIGN §7 codes). */
export interface ApiError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export interface NuzoApi {
  inbox(): Promise<OfferView[]>;
  offer(params: { offer_id: string }): Promise<OfferView>;
  decideOffer(params: { offer_id: string; approve: boolean; edits?: DraftEdits }): Promise<OfferView>;

  searchMemories(params: MemoryQuery): Promise<MemoryPage>;
  memory(params: { memory_id: string }): Promise<{ memory: Memory; revisions: MemoryRevision[] }>;
  facets(): Promise<Facets>;
  createMemory(params: { content: string; kind?: Kind; scope?: string; tags?: string[] }): Promise<Memory>;
  updateMemory(params: { memory_id: string; expected_revision: number } & DraftEdits): Promise<Memory>;
  forgetMemory(params: { memory_id: string; expected_revision: number }): Promise<Memory>;
  restoreMemory(params: { memory_id: string; expected_revision: number }): Promise<Memory>;
  restoreRevision(params: { memory_id: string; revision: number; expected_revision: number }): Promise<Memory>;

  audit(params: { action?: string; outcome?: AuditEntry['outcome']; actor?: string; before?: number; limit?: number }): Promise<AuditEntry[]>;
  connections(): Promise<ConnectionView[]>;
  grants(): Promise<GrantView[]>;
  createGrant(params: GrantInput): Promise<GrantView>;
  revokeGrant(params: { grant_id: string }): Promise<GrantView>;

  hostConfigs(): Promise<HostConfigView[]>;
  writeHostConfig(params: { host: HostId }): Promise<{ path: string; backup: string | null; changed: boolean }>;

  settings(): Promise<SettingsView>;
  setCapturePaused(params: { paused: boolean }): Promise<SettingsView>;
  exportData(params: { path?: string }): Promise<{ path: string; count: number }>;
  importData(params: { path: string }): Promise<{ written: number; duplicate: number; refused: number }>;
  backup(): Promise<{ path: string }>;

  subscribe(listener: (event: ApiEvent) => void): () => void;
}

export type ApiMethod = Exclude<keyof NuzoApi, 'subscribe'>;
