import type { ReactNode } from 'react';
import type { OfferView } from '../../../../main/ui-api/contract';
import { Icon } from '../../components/Icon';
import { ORIGIN_LABEL } from '../../lib/vocabulary';

interface Props {
  draft: OfferView['draft'];
  onOpenMemory(id: string): void;
}

/** Why a person should look twice. Content may add friction here; it never removes any. */
export function OfferWarnings({ draft, onOpenMemory }: Props) {
  const { warnings, similar, origin } = draft;
  const items: Array<{ key: string; tone: 'warn' | 'danger'; body: ReactNode }> = [];

  if (warnings.includes('untrusted_origin') || origin === 'network' || origin === 'unknown') {
    items.push({
      key: 'untrusted',
      // Same colours as the origin badge: amber for network, red for unknown.
      tone: origin === 'network' ? 'warn' : 'danger',
      body:
        origin === 'network' ? (
          <>
            <strong>Untrusted origin: network.</strong> This text was fetched from off this machine (a web page, a search result); anyone could have written it. Agents will
            see it fenced as untrusted data. Approve only if you want it kept.
          </>
        ) : (
          <>
            <strong>Untrusted origin: unknown.</strong> It came from a tool or channel Nuzo does not recognise, so it gets no trust. Agents will see it fenced as untrusted
            data. Approve only if you want it kept.
          </>
        ),
    });
  }
  if (warnings.includes('instruction_like')) {
    items.push({
      key: 'instruction',
      tone: 'danger',
      body: (
        <>
          <strong>Instruction-like text from an untrusted source.</strong> It reads like orders to an agent (“ignore previous…”, “always run…”). Memories are shown to future
          sessions, so a stored instruction could steer them.
        </>
      ),
    });
  }
  if (warnings.includes('origin_claim_ignored')) {
    items.push({
      key: 'claim',
      tone: 'warn',
      body: (
        <>
          <strong>Origin claim ignored.</strong> The request asked to be treated as more trusted than its channel. Nuzo decides origin by channel, so it stays{' '}
          <em>{ORIGIN_LABEL[origin]}</em>.
        </>
      ),
    });
  }
  if (warnings.includes('origin_lowered')) {
    items.push({
      key: 'lowered',
      tone: 'warn',
      body: (
        <>
          <strong>Lower trust on request.</strong> The agent said this came from a less trusted source, so it is recorded as <em>{ORIGIN_LABEL[origin]}</em>.
        </>
      ),
    });
  }
  if (warnings.includes('near_duplicate') || similar.length > 0) {
    items.push({
      key: 'similar',
      tone: 'warn',
      body: (
        <>
          <strong>Similar to {similar.length === 1 ? 'a memory you have' : `${similar.length} memories you have`}.</strong> Check whether this adds anything:
          <ul className="similar">
            {similar.map((s) => (
              <li key={s.id}>
                <button type="button" className="link" onClick={() => onOpenMemory(s.id)} title={`Open memory ${s.id}`}>
                  {s.content.length > 140 ? `${s.content.slice(0, 140)}…` : s.content}
                </button>{' '}
                <span className="muted">{Math.round(s.score * 100)}% similar</span>
              </li>
            ))}
          </ul>
        </>
      ),
    });
  }
  if (items.length === 0) return null;
  return (
    <ul className="warnings" aria-label="Warnings">
      {items.map((item) => (
        <li key={item.key} className={`warning warning-${item.tone}`}>
          <Icon name="warning" />
          <div>{item.body}</div>
        </li>
      ))}
    </ul>
  );
}
