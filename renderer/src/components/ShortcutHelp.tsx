import { useEffect, useRef } from 'react';
import { useShortcuts } from '../hooks/useShortcuts';

const KEYS: Array<[string, string]> = [
  ['1 – 6', 'switch screens (or g i inbox, g m memories, g a activity, g c connections, g n connect, g s settings)'],
  ['/', 'search memories'],
  ['j / k', 'next / previous item'],
  ['a', 'approve the selected draft'],
  ['r', 'reject the selected draft'],
  ['e', 'edit the selected draft or memory'],
  ['n', 'new memory (on Memories)'],
  ['Ctrl+Enter', 'save the open editor'],
  ['Esc', 'close the editor or this help'],
  ['?', 'show this help'],
];

export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useShortcuts({ Escape: onClose, '?': onClose });
  useEffect(() => closeButton.current?.focus(), []);
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="shortcut-title">
      <div className="dialog">
        <h2 id="shortcut-title">Keyboard</h2>
        <dl className="keys">
          {KEYS.map(([key, what]) => (
            <div key={key} className="keys-row">
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button ref={closeButton} type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
