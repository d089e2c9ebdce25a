/**
 * The bridge's stderr. In relay mode stdout belongs to MCP alone, so every human-readable line
 * goes here, one line per event, prefixed so a host's combined log says who spoke.
 */
export type Log = (line: string) => void;

export const stderrLog: Log = (line) => {
  // A host that stopped reading our stderr must not take the bridge down with it.
  try {
    process.stderr.write(`nuzo-bridge: ${line.replace(/\s*\n\s*/g, ' ')}\n`);
  } catch {
    // nowhere left to report to
  }
};

/** A one-line description of anything thrown, never a stack (the host shows this to people). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
