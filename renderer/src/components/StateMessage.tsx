import type { ReactNode } from 'react';
import type { ApiError } from '../../../main/ui-api/contract';
import { nextStepFor } from '../api/api-error';

/** Empty states: what this place is for and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <p className="state-title">{title}</p>
      {children !== undefined && <div className="state-body">{children}</div>}
    </div>
  );
}

export function LoadingState({ what }: { what: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading {what}…</span>
    </div>
  );
}

export function ErrorState({ error, what, onRetry }: { error: ApiError; what: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">Could not load {what}.</p>
      <p className="state-body">
        {error.message} {nextStepFor(error)}
      </p>
      {onRetry !== undefined && (
        <button type="button" className="btn" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** A failed action, shown next to what the person just tried. */
export function InlineError({ error }: { error: ApiError }) {
  return (
    <div className="inline-error" role="alert">
      <strong>{error.message}</strong> {nextStepFor(error)}
    </div>
  );
}
