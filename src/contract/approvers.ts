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
}
