import type { Decision } from "../vocabulary/events.js";
import type { PermissionPolicy, PolicyVerdict } from "./types.js";

const SEVERITY: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * Merges policies (e.g. managed, user and project layers) so the strictest answer wins (deny > ask > allow), as its
 * layer gave it (`ruleId`, `reason`); ties go to the earlier layer, and a deny stops evaluation. A throwing layer
 * makes the check throw, which the gate turns into a deny. With no layers the answer is `{ decision: "allow" }`.
 */
export function composePolicies(...policies: PermissionPolicy[]): PermissionPolicy {
  return {
    async check(call, ctx): Promise<PolicyVerdict> {
      let winner: Decision | PolicyVerdict = "allow";
      let winnerSeverity = -1;
      for (const layer of policies) {
        const answer = await layer.check(call, ctx);
        const severity = severityOf(answer);
        if (severity > winnerSeverity) {
          winner = answer;
          winnerSeverity = severity;
        }
        if (severity >= SEVERITY.deny) break;
      }
      // Always a verdict, a bare decision wrapped (the seed's shape).
      return typeof winner === "string" ? { decision: winner } : winner;
    },
  };
}

/** An answer that is not a known decision ranks as a deny (fail closed); the gate rejects it as invalid. */
function severityOf(answer: Decision | PolicyVerdict): number {
  const decision: unknown = typeof answer === "string" ? answer : answer?.decision;
  return typeof decision === "string" && Object.hasOwn(SEVERITY, decision)
    ? SEVERITY[decision as Decision]
    : SEVERITY.deny;
}
