import { useState } from 'react';
import type { ApiError } from '../../../../main/ui-api/contract';
import { toApiError } from '../../api/api-error';
import { useApi } from '../../api/ApiContext';
import { FieldsEditor, type FieldValues } from '../../components/FieldsEditor';
import { useToast } from '../../components/Toasts';
import { parseTags } from '../../lib/vocabulary';

/** A memory typed by the person: origin `user`, no consent step (they are the consent). */
export function NewMemory({ scopes, onDone }: { scopes: string[]; onDone(id: string | null): void }) {
  const api = useApi();
  const toast = useToast();
  const [values, setValues] = useState<FieldValues>({ content: '', kind: 'note', scope: 'user', tagsText: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  return (
    <div className="detail">
      <h2 className="detail-title">New memory</h2>
      <FieldsEditor
        label="New memory"
        value={values}
        onChange={setValues}
        scopes={scopes}
        submitLabel="Save memory"
        busy={busy}
        error={error}
        onCancel={() => onDone(null)}
        onSubmit={() => {
          setBusy(true);
          setError(null);
          api.createMemory({ content: values.content, kind: values.kind, scope: values.scope, tags: parseTags(values.tagsText) }).then(
            (memory) => {
              setBusy(false);
              toast({ text: 'Saved.' });
              onDone(memory.id);
            },
            (thrown: unknown) => {
              setBusy(false);
              setError(toApiError(thrown));
            },
          );
        }}
      />
    </div>
  );
}
