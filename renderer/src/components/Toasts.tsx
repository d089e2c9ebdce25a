import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

export interface ToastInput {
  text: string;
  tone?: 'info' | 'error';
  action?: { label: string; run(): void };
}

interface Toast extends ToastInput {
  id: number;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => undefined);

/** Short confirmations of what just happened, with an undo where one exists. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (toast: ToastInput) => {
      const id = next.current++;
      // Newest replaces the previous one unless that one offers an undo still worth having.
      setToasts((all) => [...all.filter((t) => t.action !== undefined).slice(-1), { ...toast, id }]);
      setTimeout(() => dismiss(id), toast.action !== undefined ? 8000 : 4000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast${toast.tone === 'error' ? ' toast-error' : ''}`}>
            <span>{toast.text}</span>
            {toast.action !== undefined && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  toast.action?.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): (toast: ToastInput) => void {
  return useContext(ToastContext);
}
