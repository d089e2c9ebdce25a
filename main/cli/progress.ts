/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
export function progressBar(label: string, total: number | null): { update(done: number, extra: string): void; end(): void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  return {
    update(done, extra) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 80) return;
      last = now;
      const width = 24;
      const ratio = total ? Math.min(1, done / total) : 0;
      const bar = total ? '█'.repeat(Math.round(ratio * width)).padEnd(width, '░') : '';
      const count = total ? `${done}/${total}` : `${done}`;
      process.stderr.write(`\r${label} ${bar} ${count} ${extra}\x1b[K`);
    },
    end() {
      if (tty) process.stderr.write('\r\x1b[K');
    },
  };
}
