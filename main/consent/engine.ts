import { EventEmitter } from 'node:events';
import { NuzoError, toNuzoError } from '../core/errors.js';
import type { Memory } from '../core/types.js';
import type { Store } from '../store/store.js';
import { executeWrite, needsPersonalDecision, prepareDraft, setForgotten } from '../pipeline/pipeline.js';
import { checkRevision } from '../pipeline/revision.js';
import { validateCapture } from '../pipeline/validate.js';
import { contentHash } from '../pipeline/novelty.js';
import type { Draft, Requester } from '../pipeline/types.js';
import type { ApiEvent, DecisionChannel, DraftEdits, OfferView } from '../ui-api/contract.js';
import { argumentHash, newOfferId, OfferQueries, offerView, type OfferRow, type StoredDraft, type StoredRequester } from './offers.js';
import { GrantQueries } from './grants.js';
import { consentLabel, mintConsent } from './proof.js';
import { renderDraftMessage } from './render-draft.js';

/** How the MCP layer asks the person through the host (form elicitation), if it can. */
export interface DecisionAsker {
  canElicit: boolean;
  /** Resolves 'approve' | 'decline' | 'none' (cancel, timeout, error: the offer stays pending). */
  elicit(message: string, signal: AbortSignal): Promise<'approve' | 'decline' | 'none'>;
  /** Called now and then while waiting, for hosts that gave a progress token. */
  progress?(elapsedMs: number, totalMs: number): void;
}

export type ConfirmOutcome =
  | { status: 'executed'; memory: Memory; via: 'standing' | 'attested' | DecisionChannel; offer_id: string | null }
  | { status: 'forgotten'; memory: Memory; offer_id: string };

export interface EngineOptions {
  /** How long a confirm call waits for a decision before answering consent_pending. */
  waitMs?: number;
  /** How long an undecided offer lives. */
  offerTtlMs?: number;
}

const DEFAULT_WAIT_MS = 45_000;
const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
const PROGRESS_EVERY_MS = 5_000;

/**
 * Consent (DESIGN §6): standing grants, durable offers, form elicitation and window decisions, and
 * the one-use execution of an offer's frozen input. Everything that writes on someone's behalf
 * after a decision goes through `decide`, whose state change and write share one transaction.
 */
export class ConsentEngine {
  readonly offers: OfferQueries;
  readonly grants: GrantQueries;
  readonly events = new EventEmitter();
  private windows = 0;
  private closed = false;
  private readonly waitMs: number;
  private readonly ttlMs: number;

  constructor(private readonly store: Store, options: EngineOptions = {}) {
    this.offers = new OfferQueries(store.db);
    this.grants = new GrantQueries(store.db);
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    this.ttlMs = options.offerTtlMs ?? DEFAULT_TTL_MS;
    this.events.setMaxListeners(0);
  }

  /** A window (Electron or the loopback UI) can show offers while the returned function is not called. */
  attachWindow(): () => void {
    this.windows++;
    let attached = true;
    return () => {
      if (attached) this.windows--;
      attached = false;
    };
  }

  /** Ends every wait at once: a stopping service answers its callers instead of lingering. */
  close(): void {
    this.closed = true;
    this.events.emit('shutdown');
  }

  get windowAvailable(): boolean {
    return this.windows > 0;
  }

  emit(event: ApiEvent): void {
    this.events.emit('event', event);
  }

  /** `memory_confirm_capture`: stages 1–6, then a grant, or an offer and a decision. */
  async confirm(args: Record<string, unknown>, requester: StoredRequester, asker: DecisionAsker | null): Promise<ConfirmOutcome> {
    const { confirm, ...input } = args;
    const attested = confirm === true;
    const draft = prepareDraft(this.store, input, requester);
    if (draft.blocker) {
      this.auditRefusal(requester, 'memory_confirm_capture', draft.blocker.code);
      throw new NuzoError(draft.blocker.code, draft.blocker.message, draft.blocker.details);
    }
    if (!needsPersonalDecision(draft)) {
      const grant = this.grants.covering({ host: requester.host, scope: draft.fields.scope, origin: draft.origin, kind: draft.fields.kind, attested });
      if (grant) {
        const via = grant.requires_attestation ? 'attested' : 'standing';
        const memory = executeWrite(this.store, input, requester, mintConsent(via, grant.id));
        this.emit({ type: 'memory.changed', id: memory.id });
        return { status: 'executed', memory, via, offer_id: null };
      }
    }
    const offer = this.openOffer('memory_confirm_capture', input, draft, requester, asker);
    return this.awaitDecision(offer, asker);
  }

  /**
   * A hook capture: never waits and never asks the host. A grant may cover it (only for origins a
   * grant can ever cover); otherwise it becomes a pending draft in the inbox.
   */
  propose(input: Record<string, unknown>, requester: StoredRequester): { status: 'written'; memory_id: string } | { status: 'pending'; offer_id: string } {
    const draft = prepareDraft(this.store, input, requester);
    if (draft.blocker) {
      this.auditRefusal(requester, 'hook.capture', draft.blocker.code);
      throw new NuzoError(draft.blocker.code, draft.blocker.message, draft.blocker.details);
    }
    if (!needsPersonalDecision(draft)) {
      const grant = this.grants.covering({ host: requester.host, scope: draft.fields.scope, origin: draft.origin, kind: draft.fields.kind, attested: false });
      if (grant && !grant.requires_attestation) {
        const memory = executeWrite(this.store, input, requester, mintConsent('standing', grant.id));
        this.emit({ type: 'memory.changed', id: memory.id });
        return { status: 'written', memory_id: memory.id };
      }
    }
    const offer = this.openOffer('memory_confirm_capture', input, draft, requester, null, undefined, true);
    return { status: 'pending', offer_id: offer.id };
  }

  /** `memory_forget`: always a person's decision, never a grant. */
  async forget(args: { memory_id: string; expected_revision: number }, requester: StoredRequester, asker: DecisionAsker | null): Promise<ConfirmOutcome> {
    const current = checkRevision(this.store.memories, requester, args.memory_id, args.expected_revision);
    const draft: Draft = {
      action: 'update',
      fields: { content: current.content, kind: current.kind, scope: current.scope, tags: current.tags, provenance: current.provenance },
      origin: current.origin,
      content_hash: current.content_hash,
      memory_id: current.id,
      expected_revision: current.revision,
      current,
      created_at: null,
      findings: [],
      duplicate_of: null,
      similar: [],
      warnings: [],
      blocker: null,
    };
    const offer = this.openOffer('memory_forget', { memory_id: args.memory_id, expected_revision: args.expected_revision }, draft, requester, asker, 'forget');
    return this.awaitDecision(offer, asker);
  }

  private openOffer(tool: OfferRow['tool'], input: Record<string, unknown>, draft: Draft, requester: StoredRequester, asker: DecisionAsker | null, action?: 'forget', forInbox = false): OfferRow {
    const now = Date.now();
    const hash = argumentHash(tool, input);
    // The same request again while its offer is open joins that offer rather than asking twice.
    const existing = this.offers.findPending(requester.key, hash, now);
    if (existing) return existing;
    if (!forInbox && !asker?.canElicit && !this.windowAvailable) {
      this.auditRefusal(requester, tool, 'consent_unavailable');
      throw new NuzoError(
        'consent_unavailable',
        'Nobody can be asked: this host cannot show a form (MCP elicitation) and no Nuzo window is open. Open the Nuzo app, or run `nuzo window` to open one for the running service, then try again.',
      );
    }
    const stored: StoredDraft = {
      action: action ?? draft.action,
      content: draft.fields.content,
      kind: draft.fields.kind,
      scope: draft.fields.scope,
      tags: draft.fields.tags,
      origin: draft.origin,
      provenance: draft.fields.provenance,
      warnings: draft.warnings,
      similar: draft.similar,
      current: draft.current,
    };
    const row = this.store.transaction(() => {
      const created = this.offers.create({
        id: newOfferId(),
        requester: requester.key,
        requester_json: JSON.stringify(requester),
        host: requester.host ?? null,
        tool,
        args_hash: hash,
        frozen_input: JSON.stringify(input),
        draft_json: JSON.stringify(stored),
        scope: draft.fields.scope,
        origin: draft.origin,
        created_at: now,
        expires_at: now + this.ttlMs,
      });
      this.store.audit.record({ actor: requester.actor, action: 'offer.create', target: created.id, outcome: 'pending', detail: { tool, origin: draft.origin, scope: draft.fields.scope } }, now);
      return created;
    });
    this.emit({ type: 'offer.created', id: row.id });
    return row;
  }

  private async awaitDecision(offer: OfferRow, asker: DecisionAsker | null): Promise<ConfirmOutcome> {
    const decided = this.waitFor(offer.id, this.waitMs);
    const stopAsking = new AbortController();
    if (asker?.canElicit) {
      const message = renderDraftMessage(this.view(offer));
      asker
        .elicit(message, stopAsking.signal)
        .then((answer) => {
          if (answer === 'none') return;
          try {
            this.decide(offer.id, answer === 'approve', 'form');
          } catch {
            // another decision won, or the offer expired: the waiter reports the final state
          }
        })
        .catch(() => {});
    }
    let ticker: NodeJS.Timeout | undefined;
    if (asker?.progress) {
      const started = Date.now();
      ticker = setInterval(() => asker.progress?.(Date.now() - started, this.waitMs), PROGRESS_EVERY_MS);
    }
    try {
      await decided;
    } finally {
      stopAsking.abort();
      if (ticker) clearInterval(ticker);
    }
    if (this.closed) {
      throw new NuzoError('app_unavailable', `Nuzo is shutting down. The offer stays pending: call memory_capture_status with offer_id ${offer.id} once it is back.`, { offer_id: offer.id });
    }
    return this.outcomeOf(offer.id);
  }

  /** The final answer for an offer, as the MCP caller sees it. */
  outcomeOf(offerId: string): ConfirmOutcome {
    this.offers.expireDue(Date.now());
    const row = this.offers.get(offerId)!;
    switch (row.state) {
      case 'executed': {
        const memory = this.store.memories.get(row.memory_id!)!;
        if (row.tool === 'memory_forget') return { status: 'forgotten', memory, offer_id: row.id };
        return { status: 'executed', memory, via: row.decided_via ?? 'window', offer_id: row.id };
      }
      case 'declined':
        throw new NuzoError('consent_declined', 'The person declined this memory; nothing was stored. Do not retry unless they ask.', { offer_id: row.id });
      case 'expired':
        throw new NuzoError('consent_expired', 'This offer expired before anyone decided; nothing was stored.', { offer_id: row.id });
      case 'failed':
        throw new NuzoError(row.error_code ?? 'internal_error', `The approved memory could not be written (${row.error_code}); nothing was stored.`, { offer_id: row.id });
      default:
        throw new NuzoError(
          'consent_pending',
          `Waiting for a person to decide in the Nuzo window. Call memory_capture_status with offer_id ${row.id} later to see the outcome; do not submit it again.`,
          { offer_id: row.id, expires_at: new Date(row.expires_at).toISOString() },
        );
    }
  }

  private waitFor(offerId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const onEvent = (event: ApiEvent): void => {
        if (event.type === 'offer.decided' && event.id === offerId) done();
      };
      const timer = setTimeout(() => done(), ms);
      const done = (): void => {
        clearTimeout(timer);
        this.events.off('event', onEvent);
        this.events.off('shutdown', done);
        resolve();
      };
      this.events.on('event', onEvent);
      this.events.once('shutdown', done);
      if (this.closed) done();
      if (this.offers.get(offerId)?.state !== 'pending') done();
    });
  }

  /**
   * A person's decision. The state change and the write are one transaction, so two approvals
   * at once produce exactly one write, and the frozen input executes at most once.
   */
  decide(offerId: string, approve: boolean, via: DecisionChannel, edits?: DraftEdits): OfferView {
    const now = Date.now();
    const result = this.store.transaction(() => {
      const row = this.offers.get(offerId);
      if (!row) throw new NuzoError('not_found', `There is no offer ${offerId}.`, { offer_id: offerId });
      if (row.state === 'pending' && row.expires_at <= now) {
        this.offers.close(row.id, { state: 'expired', at: now });
        return { row: this.offers.get(offerId)!, closedNow: true };
      }
      if (row.state !== 'pending') {
        throw new NuzoError('offer_closed', `This offer was already ${row.state}${row.decided_via ? ` (${row.decided_via})` : ''}.`, { offer_id: offerId, state: row.state });
      }
      const requester = JSON.parse(row.requester_json) as StoredRequester;
      if (!approve) {
        this.offers.close(row.id, { state: 'declined', at: now, via });
        this.store.audit.record({ actor: via === 'window' ? 'window' : requester.actor, action: 'offer.decline', target: row.id, outcome: 'ok', detail: { via } }, now);
        return { row: this.offers.get(offerId)!, closedNow: true };
      }
      const consent = mintConsent(via, row.id);
      try {
        let memory: Memory;
        if (row.tool === 'memory_forget') {
          memory = setForgotten(this.store, JSON.parse(row.frozen_input) as { memory_id: string; expected_revision: number }, true, requester, consent, now);
        } else {
          const frozen = JSON.parse(row.frozen_input) as Record<string, unknown>;
          const final = edits && via === 'window' ? applyEdits(frozen, edits) : frozen;
          // Only new text makes a memory the person's own; retagging or rescoping a draft
          // leaves it with the trust of where its text came from.
          const rewritten = typeof final['content'] === 'string' && contentHash(final['content']) !== contentHash(String(frozen['content'] ?? ''));
          memory = executeWrite(this.store, final, requester, consent, {
            now,
            ...(rewritten ? { originOverride: 'user' as const } : {}),
          });
        }
        this.offers.close(row.id, { state: 'executed', at: now, via, consent: consentLabel(consent), memory_id: memory.id });
        return { row: this.offers.get(offerId)!, closedNow: true, memoryId: memory.id };
      } catch (error) {
        const e = toNuzoError(error);
        // An edit the person made can be corrected and approved again; anything else is final.
        if (edits && (e.code === 'validation_error' || e.code === 'secret_detected' || e.code === 'scope_denied' || e.code === 'duplicate')) throw e;
        this.offers.close(row.id, { state: 'failed', at: now, via, error_code: e.code });
        return { row: this.offers.get(offerId)!, closedNow: true };
      }
    });
    this.emit({ type: 'offer.decided', id: offerId, state: result.row.state });
    if (result.memoryId) this.emit({ type: 'memory.changed', id: result.memoryId });
    return this.view(result.row);
  }

  /** `memory_capture_status`: only the requester that made the offer may read it. */
  status(offerId: string, requesterKey: string): OfferView {
    this.offers.expireDue(Date.now());
    const row = this.offers.get(offerId);
    if (!row || row.requester !== requesterKey) throw new NuzoError('not_found', `There is no offer ${offerId} for this connection.`, { offer_id: offerId });
    return this.view(row);
  }

  inbox(): OfferView[] {
    for (const id of this.offers.expireDue(Date.now())) this.emit({ type: 'offer.decided', id, state: 'expired' });
    return this.offers.pending().map((row) => this.view(row));
  }

  view(row: OfferRow): OfferView {
    return offerView(row, (id) => {
      const m = this.store.memories.get(id);
      return m ? m.content : '';
    });
  }

  private auditRefusal(requester: Requester, tool: string, code: string): void {
    this.store.audit.record({ actor: requester.actor, action: tool, outcome: 'refused', reason: code });
  }
}

function applyEdits(frozen: Record<string, unknown>, edits: DraftEdits): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...frozen };
  for (const [key, value] of Object.entries(edits)) if (value !== undefined) merged[key] = value;
  // the edited fields must be valid on their own before they replace the frozen ones
  validateCapture(merged);
  return merged;
}
