import type { Message } from "../vocabulary/messages.js";
import type { BackgroundCompletion, BackgroundStatus } from "./types.js";

/** The `status` attribute per status; `completed` has none, so a success keeps the plain format. */
const STATUS_ATTRIBUTE: Record<BackgroundStatus, string> = {
  completed: "",
  partial: ' status="partial"',
  failed: ' status="error"',
  cancelled: ' status="cancelled"',
};

/**
 * Renders a finished background task as the user message the model sees next turn:
 * `<background-task-completed id=".." label=".."[ status=".."]>\n<content>\n</background-task-completed>`.
 * Double quotes in the label become `'` so the attribute stays well formed; status `failed` is shown as `error`.
 */
export function backgroundCompletionMessage(completion: BackgroundCompletion): Message {
  const label = completion.label.replace(/"/g, "'");
  const status = STATUS_ATTRIBUTE[completion.status];
  return {
    role: "user",
    content:
      `<background-task-completed id="${completion.id}" label="${label}"${status}>\n` +
      `${completion.content}\n</background-task-completed>`,
  };
}
