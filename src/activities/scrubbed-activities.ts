import type { AgentActivities } from "../contract/activity-types.js";
import type { SecretScrubber } from "../wire/scrub-secrets.js";

/**
 * The activities with every result scrubbed by value and every failure scrubbed whole (shapes too), so nothing the
 * workflow records, streams or stores (history, blobs, events) holds one of the scrubber's secrets.
 */
export function scrubbedActivities(activities: AgentActivities, scrubber: SecretScrubber): AgentActivities {
  // Results are model output, tool inputs and plans: only values are matched there ("Bearer token" may be prose).
  const results = scrubber.byValue();
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, activity] of Object.entries(activities) as [
    string,
    (...args: never[]) => Promise<unknown>,
  ][])
    wrapped[name] = async (...args) => {
      try {
        return results.scrubValue(await activity(...args));
      } catch (error) {
        throw scrubber.scrubError(error);
      }
    };
  // Named after the activities they wrap: Temporal registers activities by their keys, not function names.
  return wrapped as unknown as AgentActivities;
}
