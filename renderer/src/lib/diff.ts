/** A word-level diff (LCS) for showing what an update changes. Inputs are capped by the pipeline. */
export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

function tokens(text: string): string[] {
  // Words and the whitespace after them stay together so the result reads naturally.
  return text.match(/\s+|[^\s]+\s*/g) ?? [];
}

const MAX_CELLS = 4_000_000;

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  // Common prefix and suffix first: most edits touch a small part of a memory.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string): void => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last !== undefined && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  push('same', a.slice(0, start).join(''));
  if (midA.length * midB.length > MAX_CELLS) {
    // Too large for a table: show it as a replacement rather than freeze the window.
    push('removed', midA.join(''));
    push('added', midB.join(''));
  } else {
    const n = midA.length;
    const m = midB.length;
    const table = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] = midA[i] === midB[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        push('same', midA[i]!);
        i++;
        j++;
      } else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) {
        push('removed', midA[i]!);
        i++;
      } else {
        push('added', midB[j]!);
        j++;
      }
    }
    while (i < n) push('removed', midA[i++]!);
    while (j < m) push('added', midB[j++]!);
  }
  push('same', a.slice(endA).join(''));
  return parts;
}
