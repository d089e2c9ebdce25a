import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError, DraftEdits, OfferView } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi, useApiEvents } from '../../api/ApiContext';
import { EmptyState, ErrorState, LoadingState } from '../../components/StateMessage';
import { useToast } from '../../components/Toasts';
import { useAsync } from '../../hooks/useAsync';
import { useCoalesced } from '../../hooks/useCoalesced';
import { useShortcuts } from '../../hooks/useShortcuts';
import type { ScreenId } from '../../routes';
import { OfferCard } from './OfferCard';

interface Props {
  onOpenMemory(id: string): void;
  onGo(screen: ScreenId): void;
}

const INBOX_STEP = 40;

function newestFirst(offers: OfferView[]): OfferView[] {
  // The newest draft is usually the one an agent is still waiting on.
  return [...offers].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

export function InboxScreen({ onOpenMemory, onGo }: Props) {
  const api = useApi();
  const toast = useToast();
  const inbox = useAsync(() => api.inbox().then(newestFirst), [api]);
  const offers = (inbox.data ?? []).filter((o) => o.state === 'pending');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, ApiError>>({});
  const cards = useRef(new Map<string, HTMLElement>());
  const lastIndex = useRef(0);

  const reload = useCoalesced(inbox.reload, 150);
  useApiEvents((event) => {
    if (event.type === 'offer.created' || event.type === 'offer.decided' || event.type === 'resync') reload();
  });

  // Keep a selection; when the selected draft leaves, take the one that moved into its place.
  const selectedIndex = offers.findIndex((o) => o.id === selectedId);
  // A long inbox renders in steps: the first cards at once, more as the selection or a click
  // reaches the end, so 500 waiting drafts do not block the first paint.
  const [shown, setShown] = useState(INBOX_STEP);
  useEffect(() => {
    if (selectedIndex >= shown - 5) setShown((n) => Math.max(n, selectedIndex + INBOX_STEP));
  }, [selectedIndex, shown]);
  useEffect(() => {
    if (offers.length === 0) return;
    if (selectedIndex >= 0) {
      lastIndex.current = selectedIndex;
      return;
    }
    const next = offers[Math.min(lastIndex.current, offers.length - 1)]!;
    setSelectedId(next.id);
    // The decided card took keyboard focus with it; hand it to the one that moved into its place.
    if (document.activeElement === null || document.activeElement === document.body) {
      requestAnimationFrame(() => cards.current.get(next.id)?.focus({ preventScroll: true }));
    }
  }, [offers, selectedIndex]);

  const select = useCallback((index: number) => {
    const offer = offers[index];
    if (offer === undefined) return;
    setSelectedId(offer.id);
    const el = cards.current.get(offer.id);
    el?.focus({ preventScroll: true });
    el?.scrollIntoView({ block: 'nearest' });
  }, [offers]);

  const decide = useCallback(
    (offer: OfferView, approve: boolean, edits?: DraftEdits) => {
      if (busyId !== null) return;
      setBusyId(offer.id);
      setErrors(({ [offer.id]: _, ...rest }) => rest);
      const params = edits !== undefined && Object.keys(edits).length > 0 ? { offer_id: offer.id, approve, edits } : { offer_id: offer.id, approve };
      api.decideOffer(params).then(
        (result) => {
          setBusyId(null);
          setEditingId(null);
          if (result.state === 'executed') {
            const what = offer.draft.action === 'forget' ? 'Forgotten (it is in the Trash)' : edits !== undefined ? 'Approved with your edits' : 'Approved';
            const memoryId = result.memory_id;
            toast({ text: `${what}.`, ...(memoryId !== null ? { action: { label: 'Open', run: () => onOpenMemory(memoryId) } } : {}) });
          } else if (result.state === 'declined') {
            toast({ text: offer.draft.action === 'forget' ? 'Kept. The agent was told you declined.' : 'Rejected. The agent was told you declined.' });
          } else if (result.state === 'failed') {
            toast({ tone: 'error', text: `It could not be written (${result.error_code ?? 'failed'}). The agent was told why.` });
          }
          inbox.reload();
        },
        (thrown: unknown) => {
          setBusyId(null);
          const problem = toApiError(thrown);
          // Decided elsewhere first (the host's form, another window): the card is about to go.
          if (problem.code === 'offer_closed' || problem.code === 'not_found') toast({ text: 'That draft was already decided elsewhere.' });
          else setErrors((all) => ({ ...all, [offer.id]: problem }));
          inbox.reload();
        },
      );
    },
    [api, busyId, inbox, onOpenMemory, toast],
  );

  const selected = selectedIndex >= 0 ? offers[selectedIndex] : undefined;
  useShortcuts({
    j: () => select(Math.min(offers.length - 1, selectedIndex + 1)),
    k: () => select(Math.max(0, selectedIndex - 1)),
    ArrowDown: () => select(Math.min(offers.length - 1, selectedIndex + 1)),
    ArrowUp: () => select(Math.max(0, selectedIndex - 1)),
    a: () => selected !== undefined && editingId === null && decide(selected, true),
    r: () => selected !== undefined && editingId === null && decide(selected, false),
    e: () => selected !== undefined && selected.draft.action !== 'forget' && setEditingId(selected.id),
  });

  let body;
  if (inbox.loading) body = <LoadingState what="the inbox" />;
  else if (inbox.error !== null && inbox.data === undefined) body = <ErrorState error={inbox.error} what="the inbox" onRetry={inbox.reload} />;
  else if (offers.length === 0)
    body = (
      <EmptyState title="Nothing waiting. When an agent asks to remember something, it appears here.">
        <p>
          Connect a host (Claude Code, Claude Desktop, Cursor, VS Code) so its agents can propose memories:{' '}
          <button type="button" className="link" onClick={() => onGo('connect')}>
            open Connect
          </button>{' '}
          (key <kbd>5</kbd>) for the exact config, or run <code>nuzo connect claude-code</code>.
        </p>
        <p className="muted">Nothing becomes a memory until you approve it here, in the host’s own prompt, or through a grant you created in Connections.</p>
      </EmptyState>
    );
  else
    body = (
      <div className="offer-list" role="list" aria-label="Drafts waiting for your decision">
        {offers.slice(0, shown).map((offer, index) => (
          <div role="listitem" key={offer.id}>
            <OfferCard
              ref={(el) => {
                if (el === null) cards.current.delete(offer.id);
                else cards.current.set(offer.id, el);
              }}
              offer={offer}
              selected={index === selectedIndex}
              editing={editingId === offer.id}
              busy={busyId === offer.id}
              error={errors[offer.id] ?? null}
              onSelect={() => setSelectedId(offer.id)}
              onDecide={(approve, edits) => decide(offer, approve, edits)}
              onEdit={(open) => setEditingId(open ? offer.id : null)}
              onOpenMemory={onOpenMemory}
            />
          </div>
        ))}
        {offers.length > shown && (
          <button type="button" className="btn show-more" onClick={() => setShown((n) => n + INBOX_STEP)}>
            Show {Math.min(INBOX_STEP, offers.length - shown)} more ({offers.length - shown} not shown yet; <kbd>j</kbd> also reaches them)
          </button>
        )}
      </div>
    );

  return (
    <section className="screen screen-inbox">
      <header className="screen-head">
        <h1>Inbox</h1>
        <p className="screen-sub">
          {offers.length > 0 ? `${offers.length} waiting for your decision` : 'Drafts agents want to remember'} · <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve · <kbd>e</kbd> edit ·{' '}
          <kbd>r</kbd> reject
        </p>
      </header>
      <div className="screen-body screen-scroll">{body}</div>
    </section>
  );
}
