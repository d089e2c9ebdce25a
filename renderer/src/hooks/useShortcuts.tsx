import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';

/** Single keys (`j`, `a`, `Escape`) mapped to actions; the most recently mounted map wins. */
export type ShortcutMap = Partial<Record<string, () => void>>;

interface Registry {
  push(map: { current: ShortcutMap }): () => void;
  /** Runs the innermost handler for `key`; false when nobody handles it. */
  dispatch(key: string): boolean;
}

function createRegistry(): Registry {
  const stack: Array<{ current: ShortcutMap }> = [];
  return {
    push(map) {
      stack.push(map);
      return () => {
        const at = stack.lastIndexOf(map);
        if (at >= 0) stack.splice(at, 1);
      };
    },
    dispatch(key) {
      for (let i = stack.length - 1; i >= 0; i--) {
        const handler = stack[i]!.current[key];
        if (handler !== undefined) {
          handler();
          return true;
        }
      }
      return false;
    },
  };
}

const ShortcutContext = createContext<Registry | null>(null);

export function ShortcutProvider({ registry, children }: { registry: Registry; children: ReactNode }) {
  return <ShortcutContext.Provider value={registry}>{children}</ShortcutContext.Provider>;
}

export { createRegistry };
export type { Registry as ShortcutRegistry };

/**
 * Registers shortcuts while the calling component is mounted (and `active`). Editors register
 * `Escape` this way, so Esc closes the innermost open editor first.
 */
export function useShortcuts(map: ShortcutMap, active = true): void {
  const registry = useContext(ShortcutContext);
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    if (!active || registry === null) return;
    return registry.push(ref);
  }, [registry, active]);
}
