/**
 * Who may decide approvals of the tools a pattern names: listed actors, and members of listed groups.
 * @example { tools: "refund_*", actors: ["alice"], groups: ["finance"] }
 */
export interface ApproverRule {
  /** A tool name glob (`refund_*`), or several. */
  tools: string | string[];
  actors?: string[];
  /** Group names, defined in the plan's `groups` or the worker's `approverGroups`. */
  groups?: string[];
  /** Decisions on these tools must be signed with a key of `approverKeys` (docs/operations.md, signed approvals). */
  requireSignature?: boolean;
}

/** An approver's Ed25519 public key: decisions signed with its private key are `actor`'s. */
export interface ApproverKey {
  /** Named in each signature; unique among the plan's keys. */
  id: string;
  actor: string;
  /** The raw 32-byte Ed25519 public key, 64 hex characters (`lite-agent keygen` prints it). */
  publicKey: string;
}

/** What a pending approval or question checks signatures against: the keys, and whether one is required. */
export interface SigningSettings {
  keys: ApproverKey[];
  required?: boolean;
}

/** Who may decide one pending approval: the actors named, and each group with its members. */
export interface ApproverSet {
  actors: string[];
  groups: Record<string, string[]>;
}

/** What {@link approversFor} reads: the plan's approver rules and group definitions. */
export interface ApproverSettings {
  approvers?: ApproverRule[];
  groups?: Record<string, string[]>;
  /** The approvers' public keys, checked against signed decisions. */
  approverKeys?: ApproverKey[];
}
