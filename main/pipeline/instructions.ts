/**
 * Content may only add friction (DESIGN §1.2): this heuristic never makes a write easier. It flags
 * text that addresses the agent reading it rather than stating something, so that a person
 * reviewing a network or unknown draft sees the warning before deciding.
 */
const PATTERNS: readonly RegExp[] = [
  /\bignore (all |any )?(previous|prior|above|earlier) (instructions|messages|rules)\b/i,
  /\b(disregard|forget) (all |any |your )?(previous|prior|earlier) (instructions|context|rules)\b/i,
  /\byou (must|should|are required to) (always|never|now)\b/i,
  /\b(always|never) (run|execute|call|use|send|trust|approve)\b/i,
  /\bsystem prompt\b/i,
  /\b(as an ai|you are now|new instructions|important instruction)\b/i,
  /\b(urgent|critical)[:!]/i,
  /\bdo not (tell|inform|ask) the user\b/i,
];

export function looksLikeInstructions(text: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(text));
}
