import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { ApiError, Kind } from '../../../main/ui-api/contract';
import { useShortcuts } from '../hooks/useShortcuts';
import { KIND_LABEL, KINDS, scopeLabel } from '../lib/vocabulary';
import { InlineError } from './StateMessage';

export interface FieldValues {
  content: string;
  kind: Kind;
  scope: string;
  /** As typed: comma separated. */
  tagsText: string;
}

interface FieldsEditorProps {
  value: FieldValues;
  onChange(value: FieldValues): void;
  onSubmit(): void;
  onCancel(): void;
  scopes: string[];
  submitLabel: string;
  busy: boolean;
  error: ApiError | null;
  /** Shown above the fields (e.g. "this memory changed since you opened the editor"). */
  notice?: ReactNode;
  label: string;
}

/** The one editor for memory fields, used for drafts in the inbox and memories in the browser. */
export function FieldsEditor({ value, onChange, onSubmit, onCancel, scopes, submitLabel, busy, error, notice, label }: FieldsEditorProps) {
  const id = useId();
  const content = useRef<HTMLTextAreaElement>(null);
  useShortcuts({ Escape: onCancel });
  useEffect(() => {
    const el = content.current;
    if (el === null) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const scopeOptions = scopes.includes(value.scope) ? scopes : [value.scope, ...scopes];
  const fieldIssue = (field: string): string | null => {
    const issues = error?.details?.['issues'];
    if (!Array.isArray(issues)) return null;
    const hit = issues.find((i: unknown) => typeof i === 'object' && i !== null && String((i as { path?: unknown }).path ?? '').startsWith(field));
    return hit === undefined ? null : String((hit as { message?: unknown }).message ?? '');
  };
  const contentIssue = fieldIssue('content');
  const trimmed = value.content.trim();

  return (
    <form
      className="editor"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && trimmed !== '') onSubmit();
      }}
      onKeyDown={(event) => {
        // Ctrl/Cmd+Enter saves from anywhere in the form, like most editors.
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          if (!busy && trimmed !== '') onSubmit();
        }
      }}
    >
      {notice}
      <label className="field" htmlFor={`${id}-content`}>
        <span className="field-label">Text</span>
        <textarea
          ref={content}
          id={`${id}-content`}
          className="memory-text"
          value={value.content}
          rows={Math.min(14, Math.max(4, value.content.split('\n').length + 1))}
          onChange={(e) => onChange({ ...value, content: e.target.value })}
          aria-invalid={contentIssue !== null || trimmed === ''}
          aria-describedby={`${id}-count`}
        />
        <span id={`${id}-count`} className={`field-hint${value.content.length > 16384 ? ' field-hint-bad' : ''}`}>
          {contentIssue ?? (trimmed === '' ? 'The text cannot be empty.' : `${value.content.length.toLocaleString()} / 16,384 characters`)}
        </span>
      </label>
      <div className="field-row">
        <label className="field" htmlFor={`${id}-kind`}>
          <span className="field-label">Kind</span>
          <select id={`${id}-kind`} value={value.kind} onChange={(e) => onChange({ ...value, kind: e.target.value as Kind })}>
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABEL[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-scope`}>
          <span className="field-label">Scope</span>
          <select id={`${id}-scope`} value={value.scope} onChange={(e) => onChange({ ...value, scope: e.target.value })}>
            {scopeOptions.map((scope) => (
              <option key={scope} value={scope}>
                {scopeLabel(scope)}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-grow" htmlFor={`${id}-tags`}>
          <span className="field-label">Tags</span>
          <input id={`${id}-tags`} type="text" value={value.tagsText} placeholder="comma, separated" onChange={(e) => onChange({ ...value, tagsText: e.target.value })} />
        </label>
      </div>
      {error !== null && <InlineError error={error} />}
      <div className="editor-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || trimmed === ''}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <span className="editor-hint">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save · <kbd>Esc</kbd> to cancel
        </span>
      </div>
    </form>
  );
}
