import type { temporal } from "@temporalio/proto";
import {
  SESSION_SEARCH_ATTRIBUTES,
  type SearchAttributeKind,
  type SearchAttributeSpec,
} from "./session-search-attributes.js";
import { AgentError } from "../kernel/vocabulary/errors.js";

type OperatorService = temporal.api.operatorservice.v1.OperatorService;

/** Temporal's IndexedValueType numbers of the kinds sessions use. */
const INDEXED_TYPE: Record<SearchAttributeKind, number> = {
  Text: 1,
  Keyword: 2,
  Int: 3,
  Double: 4,
  Bool: 5,
  Datetime: 6,
  KeywordList: 7,
};

/** The namespace lacks search attributes the session workflow upserts (it would fail every workflow task). */
export class SearchAttributesMissingError extends AgentError {
  constructor(
    message: string,
    readonly missing: string[],
  ) {
    super(message);
  }
}

/**
 * Checks that the namespace has the search attributes sessions upsert (default `AgentName`, `AgentStatus`,
 * `AgentTurns`, `AgentTokens`) with their types: without them every session's workflow task fails. Throws one error
 * naming what is missing and the commands that create it; passes when the server will not say (no permission).
 */
export async function checkSearchAttributes(
  operator: OperatorService,
  namespace: string,
  required: SearchAttributeSpec = SESSION_SEARCH_ATTRIBUTES,
): Promise<void> {
  let registered: Record<string, number>;
  try {
    const listed = await operator.listSearchAttributes({ namespace });
    registered = { ...listed.systemAttributes, ...listed.customAttributes } as Record<string, number>;
  } catch {
    return;
  }
  const problems: string[] = [];
  const commands: string[] = [];
  const create = (name: string, kind: SearchAttributeKind) =>
    `  temporal operator search-attribute create --namespace ${namespace} --name ${name} --type ${kind}`;
  for (const [name, kind] of Object.entries(required)) {
    const type = registered[name];
    if (type === INDEXED_TYPE[kind]) continue;
    if (type === undefined) problems.push(`${name} (${kind})`);
    else {
      problems.push(`${name} (registered with another type; sessions need ${kind})`);
      commands.push(`  temporal operator search-attribute remove --namespace ${namespace} --name ${name}`);
    }
    commands.push(create(name, kind));
  }
  if (problems.length === 0) return;
  throw new SearchAttributesMissingError(
    `namespace '${namespace}' lacks the search attributes agent sessions keep current: ${problems.join(", ")}. ` +
      `Create them once (the dev server of 'lite-agent dev' registers them itself):\n${commands.join("\n")}\n` +
      "Or run without them: createWorker({ searchAttributes: false }) and AgentClient { searchAttributes: false }.",
    problems.map((problem) => problem.split(" ")[0]!),
  );
}
