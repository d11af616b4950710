import {
  fakeProvider,
  type FakeProvider,
  type FakeStaticTurn,
  type FakeTurn,
} from "../providers/fake-provider.js";
import type { ModelRequest } from "../kernel/vocabulary/model.js";
import { textTurn, toolCallTurn, type ScriptedToolCall } from "../testing/builders.js";
import { measures, RATIO_CALL, scriptedAnswer, SHARE_CALL } from "./scripted-answer.js";
import { sandboxFacts, tableShape, type SandboxFacts, type TableShape } from "./sandbox-facts.js";
import { toolExchanges, type ToolExchange } from "./tool-exchanges.js";
import { SAVE_REPORT_TOOL } from "./tools/save-report-tool.js";

/** Where the scripted model saves its figures. */
export const REPORT_FILE = "report.md";

/** The model id the demo agent uses when no OpenAI endpoint is configured. */
export const SCRIPTED_MODEL_ID = "scripted-demo";

/** Call ids must be unique in the conversation: prefix them with the turn. */
function calls(turn: number, list: ScriptedToolCall[]): ScriptedToolCall[] {
  return list.map((call, i) => ({ ...call, id: `t${turn}_${call.id ?? i}` }));
}

function readTurn(facts: SandboxFacts & { csvFile: string }, turn: number): FakeTurn {
  const paths = facts.docFile ? [facts.docFile, facts.csvFile] : [facts.csvFile];
  const reads = paths.map((path, i) => ({ id: `read${i}`, name: "read_file", input: { path } }));
  return toolCallTurn(
    calls(turn, reads),
    `The sandbox holds ${facts.files?.join(", ")}. Let me read ${paths.join(" and ")}.\n`,
  );
}

function statsTurn(csvFile: string, shape: TableShape, turn: number): FakeTurn {
  const columns = shape.numeric.slice(-3);
  const groupBy = shape.groupable[0];
  const requests = columns.map((column, i) => {
    const main = i === columns.length - 1 && groupBy !== undefined;
    return {
      id: `stats${i}`,
      name: "column_stats",
      input: main ? { path: csvFile, column, groupBy } : { path: csvFile, column },
    };
  });
  return toolCallTurn(
    calls(turn, requests),
    `${csvFile} has the numeric columns ${columns.join(", ")}; I'll compute their statistics.\n`,
  );
}

/** The derived figures to ask `calculate` for; none when there is nothing to relate. */
function calculations(facts: SandboxFacts): ScriptedToolCall[] {
  const { main, base } = measures(facts.stats);
  const list: ScriptedToolCall[] = [];
  if (main && base)
    list.push({
      id: RATIO_CALL,
      name: "calculate",
      input: { expression: `round(${main.sum} / ${base.sum}, 2)` },
    });
  const top = main?.groups?.[0];
  if (main && top)
    list.push({
      id: SHARE_CALL,
      name: "calculate",
      input: { expression: `round(${top.sum} / ${main.sum} * 100, 1)` },
    });
  return list;
}

/** The next move, decided from what the tool results so far say (not from a counter). */
function nextTurn(facts: SandboxFacts, turn: number, report: ToolExchange | undefined): FakeTurn {
  if (!facts.files) {
    const list = calls(turn, [{ id: "list", name: "list_files", input: { path: "." } }]);
    return toolCallTurn(list, "I'll start by looking at what is in the sandbox.\n");
  }
  if (!facts.csvFile)
    return textTurn(`I found no CSV file in the sandbox (it holds: ${facts.files.join(", ") || "nothing"}).`);
  const csvText = facts.contents.get(facts.csvFile);
  if (csvText === undefined) return readTurn({ ...facts, csvFile: facts.csvFile }, turn);
  const shape = tableShape(csvText);
  if (shape.numeric.length === 0) return textTurn(`${facts.csvFile} has no numeric column to compute with.`);
  if (facts.stats.length === 0) return statsTurn(facts.csvFile, shape, turn);
  const derived = calculations(facts);
  if (facts.calculations.size === 0 && derived.length > 0) {
    return toolCallTurn(calls(turn, derived), "Now the derived figures.\n");
  }
  const answer = scriptedAnswer(facts, shape);
  if (!report) {
    const save = { id: "save", name: SAVE_REPORT_TOOL, input: { path: REPORT_FILE, content: `${answer}\n` } };
    return toolCallTurn(
      calls(turn, [save]),
      `I'll save these figures to ${REPORT_FILE} (that needs your approval).\n`,
    );
  }
  const saved = report.isError ? `Nothing was written (${report.result}).` : `Saved to ${REPORT_FILE}.`;
  return textTurn(`${answer}\n${saved}`);
}

/** Rough token counts (four characters a token), so the usage line shows something plausible. */
function estimateUsage(request: ModelRequest, turn: FakeTurn): FakeTurn {
  const inputTokens = Math.ceil(
    (JSON.stringify(request.messages).length + (request.system?.length ?? 0)) / 4,
  );
  const outputTokens = Math.ceil(JSON.stringify(turn.message.content).length / 4);
  return { ...turn, usage: { inputTokens, outputTokens } };
}

/**
 * One answer of the scripted demo model. It decides from the conversation alone (so it is stateless, and a
 * durable run that moves to another worker gets the same answer), and stops with a clear text when a tool
 * failed instead of asking again.
 */
export function demoScriptTurn(request: ModelRequest): FakeStaticTurn {
  const turn = request.messages.filter((message) => message.role === "assistant").length + 1;
  const exchanges = toolExchanges(request.messages);
  // A declined report is the person's choice, not a failure: the answer says nothing was written.
  const report = exchanges.find(
    (exchange) => exchange.name === SAVE_REPORT_TOOL && exchange.result !== undefined,
  );
  const failed = exchanges.find((exchange) => exchange.isError && exchange !== report);
  if (failed)
    return estimateUsage(
      request,
      textTurn(`The ${failed.name} tool failed (${failed.result}), so I stop here.`),
    );
  return estimateUsage(request, nextTurn(sandboxFacts(exchanges), turn, report));
}

/**
 * The scripted model of the demo: lists the sandbox, reads the data, asks `column_stats` and `calculate` for the
 * figures, saves them with `save_report` (which a person approves), and answers with numbers taken from those
 * results. It does not read the prompt.
 */
export function scriptedDemoModel(): FakeProvider {
  return fakeProvider([demoScriptTurn], { id: SCRIPTED_MODEL_ID, onExhausted: "repeat-last" });
}
