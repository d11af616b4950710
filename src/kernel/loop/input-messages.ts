import type { RunInput } from "./kernel-config.js";
import type { ImageBlock, Message } from "../vocabulary/messages.js";

/** The run input as messages; images are attached to the last user message (or to a new one). */
export function inputMessages(input: RunInput, images: ImageBlock[] | undefined): Message[] {
  const messages: Message[] = typeof input === "string" ? [{ role: "user", content: input }] : [...input];
  if (!images || images.length === 0) return messages;
  const index = messages.findLastIndex((message) => message.role === "user");
  if (index < 0) return [...messages, { role: "user", content: [...images] }];
  const target = messages[index]!;
  const blocks =
    typeof target.content === "string" ? [{ type: "text" as const, text: target.content }] : target.content;
  messages[index] = { role: "user", content: [...blocks, ...images] };
  return messages;
}
