/**
 * Proof that a write may execute. Only the consent module mints these (DESIGN §1.4): a boolean in
 * tool arguments, prose or a capability claim has no way to become one.
 */
declare const consentBrand: unique symbol;

export type ConsentChannel =
  /** a person acting directly in the window or on the command line */
  | 'person'
  /** a person's decision on a server-shown draft in the window */
  | 'window'
  /** a person's decision through MCP form elicitation */
  | 'form'
  /** a standing grant the person created */
  | 'standing'
  /** `confirm: true` under a grant that trusts the host's attestation */
  | 'attested';

export interface ConsentProof {
  readonly [consentBrand]: true;
  readonly channel: ConsentChannel;
  /** Offer or grant id the consent came from, for the revision and audit rows. */
  readonly ref: string | null;
}

export function mintConsent(channel: ConsentChannel, ref: string | null): ConsentProof {
  return Object.freeze({ channel, ref }) as ConsentProof;
}

/** A person at the command line or in the window, acting on their own data. */
export function personActing(): ConsentProof {
  return mintConsent('person', null);
}

export function decidedByPerson(proof: ConsentProof): boolean {
  return proof.channel === 'person' || proof.channel === 'window' || proof.channel === 'form';
}

export function consentLabel(proof: ConsentProof): string {
  return proof.ref ? `${proof.channel}:${proof.ref}` : proof.channel;
}
